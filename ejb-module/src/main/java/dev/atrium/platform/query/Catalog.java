package dev.atrium.platform.query;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.persistence.criteria.AbstractQuery;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Path;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;

/**
 * What a list of one entity allows: the API names of its filterable and sortable fields mapped to JPA
 * attributes, custom filters for relations and computed conditions, and the attributes free-text search reads.
 */
public final class Catalog<E> {

    /** A filter that cannot be a plain equality on one attribute. */
    @FunctionalInterface
    public interface CustomFilter<E> {
        Predicate apply(CriteriaBuilder cb, AbstractQuery<?> query, Root<E> root, List<String> values);
    }

    record Field(String name, String attribute, Class<?> type, boolean filterable, boolean sortable,
                 boolean nonNull) {

        Path<Object> path(Root<?> root) {
            return Catalog.path(root, attribute);
        }
    }

    /** An attribute of the root, or of an embeddable inside it ({@code email.value}). */
    static Path<Object> path(Root<?> root, String attribute) {
        Path<Object> p = null;
        for (String part : attribute.split("\\.")) {
            p = p == null ? root.get(part) : p.get(part);
        }
        return p;
    }

    private final Class<E> type;
    private final Map<String, Field> fields = new LinkedHashMap<>();
    private final Map<String, CustomFilter<E>> customFilters = new LinkedHashMap<>();
    private final List<String> searchAttributes = new ArrayList<>();
    private String idAttribute = "id";
    private Class<?> idType = Long.class;
    private String createdAttribute = "createdAt";

    private Catalog(Class<E> type) {
        this.type = type;
    }

    public static <E> Catalog<E> of(Class<E> type) {
        return new Catalog<>(type).field("created_at", "createdAt", Instant.class, false, true, true);
    }

    public Catalog<E> id(String attribute, Class<?> type) {
        this.idAttribute = attribute;
        this.idType = type;
        return field("id", attribute, type, true, true, true);
    }

    public Catalog<E> createdAt(String attribute) {
        this.createdAttribute = attribute;
        // replaces the default declared by of(), which names the attribute createdAt
        fields.remove("created_at");
        return field("created_at", attribute, Instant.class, false, true, true);
    }

    /**
     * A field that may be filtered by equality and used to sort; {@code nonNull} allows cursor pagination.
     * Declaring a name again adds to what it allows (filterable, then also sortable).
     */
    public Catalog<E> field(String name, String attribute, Class<?> type, boolean filterable, boolean sortable,
                            boolean nonNull) {
        fields.merge(name, new Field(name, attribute, type, filterable, sortable, nonNull), (old, added) -> {
            if (!old.attribute().equals(added.attribute()) || old.type() != added.type()) {
                throw new IllegalStateException("Field " + name + " declared twice with different attributes");
            }
            return new Field(name, old.attribute(), old.type(), old.filterable() || added.filterable(),
                    old.sortable() || added.sortable(), old.nonNull() && added.nonNull());
        });
        return this;
    }

    public Catalog<E> filterable(String name, String attribute, Class<?> type) {
        return field(name, attribute, type, true, false, true);
    }

    public Catalog<E> sortable(String name, String attribute, Class<?> type, boolean nonNull) {
        return field(name, attribute, type, false, true, nonNull);
    }

    public Catalog<E> filter(String name, CustomFilter<E> filter) {
        customFilters.put(name, filter);
        return this;
    }

    public Catalog<E> search(String... attributes) {
        searchAttributes.addAll(List.of(attributes));
        return this;
    }

    Class<E> type() {
        return type;
    }

    Optional<Field> field(String name) {
        return Optional.ofNullable(fields.get(name));
    }

    Optional<CustomFilter<E>> customFilter(String name) {
        return Optional.ofNullable(customFilters.get(name));
    }

    List<String> searchAttributes() {
        return searchAttributes;
    }

    String idAttribute() {
        return idAttribute;
    }

    Class<?> idType() {
        return idType;
    }

    String createdAttribute() {
        return createdAttribute;
    }

    /** The filter names a list of this entity understands, so the boundary can tell filters from other parameters. */
    public List<String> filterNames() {
        var names = new ArrayList<String>();
        fields.values().stream().filter(Field::filterable).map(Field::name).forEach(names::add);
        names.addAll(customFilters.keySet());
        return names;
    }
}
