package dev.atrium.content.entity;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SlugsTest {

    @Test
    void whenTitleHasAccentsPunctuationAndCaseThenLowerAsciiWithSingleHyphens() {
        assertThat(Slugs.of("Ça marche: Jakarta EE 10!", 200, "x")).isEqualTo("ca-marche-jakarta-ee-10");
        assertThat(Slugs.of("  --Hello   World--  ", 200, "x")).isEqualTo("hello-world");
    }

    @Test
    void whenNothingUsableRemainsThenTheFallback() {
        assertThat(Slugs.of("!!!", 200, "article")).isEqualTo("article");
        assertThat(Slugs.of(null, 200, "article")).isEqualTo("article");
        assertThat(Slugs.of("日本語", 200, "article")).isEqualTo("article");
    }

    @Test
    void whenTooLongThenCutWithoutATrailingHyphen() {
        assertThat(Slugs.of("abc def ghi", 4, "x")).isEqualTo("abc");
    }
}
