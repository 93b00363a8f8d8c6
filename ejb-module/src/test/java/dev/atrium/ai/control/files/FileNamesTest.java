package dev.atrium.ai.control.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.objects.ObjectStore;

class FileNamesTest {

    @Test
    void whenTheNameIsPlainThenItIsKept() {
        assertThat(FileNames.sanitise("Quarterly report 2026.pdf")).isEqualTo("Quarterly report 2026.pdf");
        assertThat(FileNames.sanitise("Grüße aus Köln – 東京.docx")).isEqualTo("Grüße aus Köln – 東京.docx");
    }

    @Test
    void whenTheNameIsAPathThenOnlyItsLastSegmentIsKept() {
        assertThat(FileNames.sanitise("../../etc/passwd")).isEqualTo("passwd");
        assertThat(FileNames.sanitise("..\\..\\windows\\system32\\drivers\\etc\\hosts")).isEqualTo("hosts");
        assertThat(FileNames.sanitise("C:\\Users\\ada\\Desktop\\notes.txt")).isEqualTo("notes.txt");
        assertThat(FileNames.sanitise("/absolute/path/x.csv")).isEqualTo("x.csv");
        assertThat(FileNames.sanitise("dir/")).isEqualTo(FileNames.FALLBACK);
    }

    @Test
    void whenTheNameIsOnlyDotsOrEmptyThenItIsTheFallback() {
        assertThat(FileNames.sanitise(null)).isEqualTo("file");
        assertThat(FileNames.sanitise("")).isEqualTo("file");
        assertThat(FileNames.sanitise("..")).isEqualTo("file");
        assertThat(FileNames.sanitise(" . ")).isEqualTo("file");
        assertThat(FileNames.sanitise("\u0000\u0007")).isEqualTo("file");
    }

    @Test
    void whenTheNameHasControlOrInvisibleCharactersThenTheyAreDropped() {
        assertThat(FileNames.sanitise("re\u0000port\n.pdf")).isEqualTo("report.pdf");
        // a right-to-left override would show "invoice_fdp.exe" as "invoice_exe.pdf"
        assertThat(FileNames.sanitise("invoice_\u202Efdp.exe")).isEqualTo("invoice_fdp.exe");
        assertThat(FileNames.sanitise("zero\u200Bwidth.txt")).isEqualTo("zerowidth.txt");
        assertThat(FileNames.sanitise("tab\there.txt")).isEqualTo("tabhere.txt");
    }

    @Test
    void whenTheNameHasCharactersFileSystemsRefuseThenTheyBecomeUnderscores() {
        assertThat(FileNames.sanitise("a<b>c:d\"e|f?g*.txt")).isEqualTo("a_b_c_d_e_f_g_.txt");
        assertThat(FileNames.sanitise("  many   spaces  .txt  ")).isEqualTo("many spaces .txt");
        assertThat(FileNames.sanitise("...hidden")).isEqualTo("hidden");
        assertThat(FileNames.sanitise("CON.txt")).isEqualTo("_CON.txt");
        assertThat(FileNames.sanitise("lpt1")).isEqualTo("_lpt1");
        assertThat(FileNames.sanitise("console.txt")).isEqualTo("console.txt");
    }

    @Test
    void whenTheNameIsTooLongThenItIsCutToTheByteLimitKeepingTheExtension() {
        String longName = "a".repeat(300) + ".pdf";
        assertThat(FileNames.sanitise(longName)).hasSize(FileNames.MAX_BYTES).endsWith("a.pdf");

        String wide = "東".repeat(100) + ".txt";
        String cut = FileNames.sanitise(wide);
        assertThat(cut.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(FileNames.MAX_BYTES);
        assertThat(cut).endsWith("東.txt").startsWith("東");

        String noExtension = "b".repeat(500);
        assertThat(FileNames.sanitise(noExtension)).isEqualTo("b".repeat(FileNames.MAX_BYTES));
    }

    @Test
    void whenTheNameArrivedAsUtf8BytesReadAsLatin1ThenItIsReadAgainAsUtf8() {
        String mangled = new String("Grüße.txt".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);

        assertThat(FileNames.sanitise(mangled)).isEqualTo("Grüße.txt");
        // real Latin-1 that is not UTF-8 stays as it is
        assertThat(FileNames.sanitise("caf\u00e9.txt")).isEqualTo("café.txt");
    }

    @Test
    void whenSanitisedThenTheNameIsAValidLastSegmentOfAnObjectKey() {
        for (String raw : new String[] {"../x", "a/../../b", "\u0000", ".", "..", "a\\b", "x".repeat(2000),
                "\uD800broken surrogate.txt"}) {
            String name = FileNames.sanitise(raw);
            assertThat(ObjectStore.checkedKey("7/" + java.util.UUID.randomUUID() + "/" + name)).as(raw).isNotEmpty();
            assertThat(name).doesNotContain("/", "\\").isNotIn(".", "..");
        }
    }

    @Test
    void whenAnAttachmentHeaderIsMadeThenItHasAnAsciiNameAndTheExactOneEncoded() {
        assertThat(FileNames.attachment("report.pdf"))
                .isEqualTo("attachment; filename=\"report.pdf\"; filename*=UTF-8''report.pdf");
        assertThat(FileNames.attachment("Grüße 100%.txt"))
                .isEqualTo("attachment; filename=\"Gr__e 100_.txt\"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20100%25.txt");
        assertThat(FileNames.attachment("evil\"\r\nSet-Cookie: x.txt"))
                .doesNotContain("\r", "\n").startsWith("attachment; filename=\"evil_Set-Cookie_ x.txt\"");
    }
}
