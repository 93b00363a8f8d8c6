package dev.atrium.platform.query;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import jakarta.persistence.criteria.AbstractQuery;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Order;
import jakarta.persistence.criteria.Path;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;

import dev.atrium.platform.error.BusinessException;

/**
 * Runs a {@link ListQuery} against one entity with the Criteria API: filters, search, time range, ids, sorting
 * with an id tie-breaker, and either offset pagination with a total or keyset (cursor) pagination.
 */
public final class EntityQuery<E> {

    /** Conditions a service adds to every list, for example "published, or written by the caller". */
    @FunctionalInterface
    public interface Restriction<E> {
        Predicate apply(CriteriaBuilder cb, AbstractQuery<?> query, Root<E> root);
    }

    private final EntityManager em;
    private final Catalog<E> catalog;
    private final Map<String, Object> hints = new LinkedHashMap<>();

    public EntityQuery(EntityManager em, Catalog<E> catalog) {
        this.em = em;
        this.catalog = catalog;
    }

    /** A query hint for the item query, for example batch fetching of a relation. */
    public EntityQuery<E> hint(String name, Object value) {
        hints.put(name, value);
        return this;
    }

    private TypedQuery<E> items(CriteriaQuery<E> cq) {
        var q = em.createQuery(cq);
        hints.forEach(q::setHint);
        return q;
    }

    public Listing<E> list(ListQuery query) {
        return list(query, null);
    }

    public Listing<E> list(ListQuery query, Restriction<E> restriction) {
        CriteriaBuilder cb = em.getCriteriaBuilder();
        List<Term> order = order(query);

        CriteriaQuery<E> cq = cb.createQuery(catalog.type());
        Root<E> root = cq.from(catalog.type());
        List<Predicate> where = predicates(cb, cq, root, query, restriction);
        if (query.cursorMode() && query.cursor() != null && !query.cursor().isBlank()) {
            where.add(after(cb, root, order, query));
        }
        cq.select(root).where(where.toArray(Predicate[]::new)).orderBy(orderBy(cb, root, order));

        if (query.cursorMode()) {
            List<E> rows = items(cq).setMaxResults(query.limit() + 1).getResultList();
            boolean more = rows.size() > query.limit();
            List<E> items = more ? rows.subList(0, query.limit()) : rows;
            String next = more ? encodeCursor(order, items.get(items.size() - 1)) : null;
            return new Listing<>(items, -1, 0, 0, true, query.limit(), next);
        }

        List<E> items = items(cq).setFirstResult(query.offset()).setMaxResults(query.pageSize()).getResultList();
        if (items.size() < query.pageSize() && (!items.isEmpty() || query.offset() == 0)) {
            // a page that is not full is the last one: the total is known without counting
            return new Listing<>(items, (long) query.offset() + items.size(), query.page(), query.pageSize(), false,
                    0, null);
        }
        CriteriaQuery<Long> count = cb.createQuery(Long.class);
        Root<E> countRoot = count.from(catalog.type());
        count.select(cb.count(countRoot))
                .where(predicates(cb, count, countRoot, query, restriction).toArray(Predicate[]::new));
        long total = em.createQuery(count).getSingleResult();
        return new Listing<>(items, total, query.page(), query.pageSize(), false, 0, null);
    }

    private List<Predicate> predicates(CriteriaBuilder cb, AbstractQuery<?> cq, Root<E> root, ListQuery query,
                                       Restriction<E> restriction) {
        var where = new ArrayList<Predicate>();
        if (restriction != null) {
            where.add(restriction.apply(cb, cq, root));
        }
        query.filters().forEach((name, values) -> {
            if (values.isEmpty()) {
                return;
            }
            var custom = catalog.customFilter(name);
            if (custom.isPresent()) {
                where.add(custom.get().apply(cb, cq, root, values));
                return;
            }
            catalog.field(name).filter(Catalog.Field::filterable).ifPresent(field -> {
                Path<Object> path = field.path(root);
                var parsed = values.stream().map(v -> Values.parse(name, v, field.type())).toList();
                where.add(parsed.size() == 1 ? cb.equal(path, parsed.get(0)) : path.in(parsed));
            });
        });
        if (query.search() != null && !query.search().isBlank() && !catalog.searchAttributes().isEmpty()) {
            String pattern = "%" + escapeLike(query.search().trim().toLowerCase(Locale.ROOT)) + "%";
            var any = catalog.searchAttributes().stream()
                    .map(a -> cb.like(cb.lower(Catalog.path(root, a).as(String.class)), pattern, '\\'))
                    .toArray(Predicate[]::new);
            where.add(cb.or(any));
        }
        Path<Instant> created = root.get(catalog.createdAttribute());
        if (query.createdAfter() != null) {
            where.add(cb.greaterThan(created, query.createdAfter()));
        }
        if (query.createdBefore() != null) {
            where.add(cb.lessThan(created, query.createdBefore()));
        }
        if (!query.ids().isEmpty()) {
            var ids = query.ids().stream().map(v -> Values.parse("ids", v, catalog.idType())).toList();
            where.add(root.get(catalog.idAttribute()).in(ids));
        }
        return where;
    }

    /** One sort term in effect: a catalog field and its direction. */
    record Term(Catalog.Field field, boolean descending) {
    }

    /** The sort in effect: known sortable fields from the request, else the default, then the id tie-breaker. */
    private List<Term> order(ListQuery query) {
        var terms = new ArrayList<Term>();
        for (SortField s : query.sort()) {
            catalog.field(s.field()).filter(Catalog.Field::sortable)
                    .filter(f -> terms.stream().noneMatch(t -> t.field().name().equals(f.name())))
                    .ifPresent(f -> terms.add(new Term(f, s.descending())));
        }
        if (terms.isEmpty()) {
            catalog.field("created_at").ifPresent(f -> terms.add(new Term(f, true)));
        }
        if (terms.stream().noneMatch(t -> t.field().name().equals("id"))) {
            // the id follows the first term's direction, so equal keys keep a stable order across pages
            var id = new Catalog.Field("id", catalog.idAttribute(), catalog.idType(), false, true, true);
            terms.add(new Term(id, !terms.isEmpty() && terms.get(0).descending()));
        }
        return terms;
    }

    private List<Order> orderBy(CriteriaBuilder cb, Root<E> root, List<Term> order) {
        return order.stream()
                .map(t -> t.descending() ? cb.desc(t.field().path(root)) : cb.asc(t.field().path(root)))
                .toList();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Predicate after(CriteriaBuilder cb, Root<E> root, List<Term> order, ListQuery query) {
        for (Term t : order) {
            if (!t.field().nonNull()) {
                throw BusinessException.validation("sort: '" + t.field().name()
                        + "' cannot be used with cursor pagination");
            }
        }
        List<Object> values = decodeCursor(order, query);
        var alternatives = new ArrayList<Predicate>();
        for (int i = 0; i < order.size(); i++) {
            var conjunction = new ArrayList<Predicate>();
            for (int j = 0; j < i; j++) {
                conjunction.add(cb.equal(order.get(j).field().path(root), values.get(j)));
            }
            Term t = order.get(i);
            Expression<Comparable> path = (Expression) t.field().path(root);
            Comparable value = (Comparable) values.get(i);
            conjunction.add(t.descending() ? cb.lessThan(path, value) : cb.greaterThan(path, value));
            alternatives.add(cb.and(conjunction.toArray(Predicate[]::new)));
        }
        return cb.or(alternatives.toArray(Predicate[]::new));
    }

    private static String signature(List<Term> order) {
        return order.stream().map(t -> (t.descending() ? "-" : "") + t.field().name())
                .collect(Collectors.joining(","));
    }

    private String encodeCursor(List<Term> order, E last) {
        var parts = new ArrayList<String>();
        parts.add(signature(order));
        for (Term t : order) {
            parts.add(String.valueOf(read(last, t.field().attribute())));
        }
        String raw = parts.stream().map(p -> URLEncoder.encode(p, StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    private List<Object> decodeCursor(List<Term> order, ListQuery query) {
        String[] parts;
        try {
            String raw = new String(Base64.getUrlDecoder().decode(query.cursor()), StandardCharsets.UTF_8);
            parts = raw.split("&", -1);
        } catch (IllegalArgumentException e) {
            throw BusinessException.validation("cursor: not a cursor this list issued");
        }
        if (parts.length != order.size() + 1
                || !URLDecoder.decode(parts[0], StandardCharsets.UTF_8).equals(signature(order))) {
            throw BusinessException.validation("cursor: does not belong to this sort order; start again without a cursor");
        }
        var values = new ArrayList<Object>();
        for (int i = 0; i < order.size(); i++) {
            Catalog.Field f = order.get(i).field();
            values.add(Values.parse("cursor", URLDecoder.decode(parts[i + 1], StandardCharsets.UTF_8), f.type()));
        }
        return values;
    }

    /** Reads a (possibly dotted) attribute by its field, as JPA would, to build the next cursor. */
    private static Object read(Object entity, String attribute) {
        Object current = entity;
        for (String part : attribute.split("\\.")) {
            current = fieldValue(current, part);
        }
        return current;
    }

    private static Object fieldValue(Object target, String name) {
        Class<?> c = target.getClass();
        while (c != null) {
            try {
                var field = c.getDeclaredField(name);
                field.setAccessible(true);
                Object v = field.get(target);
                return v instanceof Enum<?> e ? e.name().toLowerCase(Locale.ROOT) : v;
            } catch (NoSuchFieldException e) {
                c = c.getSuperclass();
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("No attribute " + name + " on " + target.getClass().getSimpleName());
    }

    static String escapeLike(String term) {
        return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
