package dev.atrium.platform.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CatalogTest {

    static class Thing {
    }

    @Test
    void whenAFieldIsDeclaredFilterableAndThenSortableThenItIsBoth() {
        var catalog = Catalog.of(Thing.class).filterable("email", "email.value", String.class)
                .sortable("email", "email.value", String.class, true);
        var field = catalog.field("email").orElseThrow();
        assertThat(field.filterable()).isTrue();
        assertThat(field.sortable()).isTrue();
        assertThat(catalog.filterNames()).contains("email");
    }

    @Test
    void whenAFieldIsDeclaredTwiceWithAnotherAttributeThenTheMistakeIsCaught() {
        var catalog = Catalog.of(Thing.class).filterable("email", "email.value", String.class);
        assertThatThrownBy(() -> catalog.sortable("email", "emailAddress", String.class, true))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void whenTheCreationAttributeIsRenamedThenCreatedAtNamesIt() {
        var catalog = Catalog.of(Thing.class).createdAt("firstSeen");
        assertThat(catalog.field("created_at").orElseThrow().attribute()).isEqualTo("firstSeen");
    }
}
