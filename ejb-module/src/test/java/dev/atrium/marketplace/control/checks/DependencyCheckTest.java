package dev.atrium.marketplace.control.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.atrium.marketplace.entity.checks.CheckFinding;
import dev.atrium.marketplace.entity.checks.Severity;

class DependencyCheckTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261123L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 300);

    private static final Advisories BUNDLED = Advisories.load("");

    @TempDir
    Path dir;

    private DependencyCheck.Outcome check(Map<String, String> files) throws IOException {
        Path root = Files.createTempDirectory(dir, "bundle");
        for (var e : files.entrySet()) {
            Path p = root.resolve(e.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, e.getValue(), StandardCharsets.UTF_8);
        }
        return new DependencyCheck(BUNDLED).check(root);
    }

    @Test
    void whenVersionsAreComparedThenEcosystemOrdersHold() {
        var order = VersionOrder.INSTANCE;
        assertThat(order.compare("2.0-beta9", "2.0")).isNegative();
        assertThat(order.compare("2.0", "2.0.0")).isZero();
        assertThat(order.compare("2.0.0", "2.0.1")).isNegative();
        assertThat(order.compare("2.14.1", "2.15.0")).isNegative();
        assertThat(order.compare("2.0-beta8", "2.0-beta9")).isNegative();
        assertThat(order.compare("2.0-rc1", "2.0-beta9")).isPositive();
        assertThat(order.compare("5.4b1", "5.4")).isNegative();
        assertThat(order.compare("5.3.1", "5.4")).isNegative();
        assertThat(order.compare("1.0.dev1", "1.0a1")).isNegative();
        assertThat(order.compare("1.0.post1", "1.0")).isPositive();
        assertThat(order.compare("1.0.post1", "1.0.1")).isNegative();
        assertThat(order.compare("v4.17.21", "4.17.21")).isZero();
        assertThat(order.compare("2.12.6.1", "2.12.6")).isPositive();
        assertThat(order.compare("10.0", "9.9")).isPositive();
        assertThat(order.compare("1!2.0", "2.0")).isZero();
        assertThat(order.compare("99999999999999999999999", "1")).isPositive();
    }

    @Test
    void whenTheBundledAdvisoriesAreReadThenEachEcosystemIsThere() {
        assertThat(BUNDLED.size()).isGreaterThanOrEqualTo(8);
    }

    @Test
    void whenRequirementsPinAVulnerablePyYamlThenAHighFindingNamesTheAdvisory() throws IOException {
        var outcome = check(Map.of("requirements.txt", "# deps\nrequests==2.31.0\nPyYAML==5.3.1 ; python_version>'3'\n"
                + "Jinja2[i18n] == 2.10.1\n-r other.txt\n--hash=sha256:abc\ngit+https://x/y.git\nflask>=1.0\n"));
        assertThat(outcome.dependencies()).isEqualTo(3);
        assertThat(outcome.findings()).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.HIGH);
            assertThat(f.pointer()).isEqualTo("requirements.txt:3");
            assertThat(f.message()).contains("pyyaml 5.3.1", "GHSA-8q59-q68h-6hv4", "CVE-2020-14343");
        });
    }

    @Test
    void whenAModerateAdvisoryMatchesThenTheFindingIsMedium() throws IOException {
        var outcome = check(Map.of("app/requirements.txt", "requests==2.25.1\n"));
        assertThat(outcome.findings()).singleElement().extracting(CheckFinding::severity).isEqualTo(Severity.MEDIUM);
    }

    @Test
    void whenPackageJsonRangesStartAtAVulnerableVersionThenTheMinimumIsChecked() throws IOException {
        var outcome = check(Map.of(
                "package.json", "{\"dependencies\": {\"lodash\": \"^4.17.15\", \"express\": \"4.18.2\", "
                        + "\"minimist\": \"~1.2.6\", \"axios\": \">=0.1 <1\", \"x\": 7},"
                        + " \"devDependencies\": {\"minimist\": \"1.2.5\"}}",
                "node_modules/axios/package.json", "{\"name\": \"axios\", \"version\": \"0.21.1\"}"));
        assertThat(outcome.findings()).extracting(CheckFinding::message)
                .anyMatch(m -> m.contains("lodash 4.17.15") && m.contains("CVE-2021-23337"))
                .anyMatch(m -> m.contains("minimist 1.2.5"))
                .anyMatch(m -> m.contains("axios 0.21.1"))
                .noneMatch(m -> m.contains("minimist 1.2.6"));
        assertThat(outcome.findings()).allMatch(f -> f.severity() == Severity.HIGH);
    }

    @Test
    void whenAPomUsesLog4ShellThroughAPropertyThenHigh() throws IOException {
        String pom = """
                <?xml version="1.0"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <version>1.0</version>
                  <properties><log4j.version>2.14.1</log4j.version></properties>
                  <dependencies>
                    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-core</artifactId>
                      <version>${log4j.version}</version></dependency>
                    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-api</artifactId>
                      <version>2.14.1</version></dependency>
                    <dependency><groupId>com.fasterxml.jackson.core</groupId><artifactId>jackson-databind</artifactId>
                      <version>2.12.6.1</version></dependency>
                    <dependency><groupId>x</groupId><artifactId>y</artifactId><version>${missing}</version></dependency>
                  </dependencies>
                </project>
                """;
        var outcome = check(Map.of("pom.xml", pom));
        assertThat(outcome.dependencies()).isEqualTo(3);
        assertThat(outcome.findings()).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.HIGH);
            assertThat(f.message()).contains("org.apache.logging.log4j:log4j-core 2.14.1", "CVE-2021-44228");
        });
    }

    @Test
    void whenVersionsSitOnTheRangeEdgesThenOnlyTheAffectedOnesMatch() throws IOException {
        for (var c : Map.of("2.0-beta8", false, "2.0-beta9", true, "2.0", true, "2.14.1", true, "2.15.0", false,
                "2.17.1", false).entrySet()) {
            var dep = new Manifests.Dependency("Maven", "org.apache.logging.log4j:log4j-core", c.getKey(), "pom.xml", 0);
            assertThat(BUNDLED.affecting(dep)).as(c.getKey()).hasSize(c.getValue() ? 1 : 0);
        }
        for (var c : Map.of("0.2.3", true, "0.2.4", false, "0.9.0", false, "1.0.0", true, "1.2.6", false).entrySet()) {
            var dep = new Manifests.Dependency("npm", "minimist", c.getKey(), "package.json", 0);
            assertThat(BUNDLED.affecting(dep)).as(c.getKey()).hasSize(c.getValue() ? 1 : 0);
        }
    }

    @Test
    void whenAnAdvisoryFileIsConfiguredThenItsRecordsAreUsed() throws IOException {
        Path file = dir.resolve("mine.osv.json");
        Files.writeString(file, """
                [{"id": "TEST-1", "summary": "a test advisory", "affected": [{"package": {"ecosystem": "PyPI",
                  "name": "Left_Pad"}, "versions": ["1.0.0"]}], "database_specific": {"severity": "LOW"}},
                 {"id": "BROKEN", "affected": "nope"}, 17, {"no": "id"}]
                """);
        var advisories = Advisories.load(file.toString());
        assertThat(advisories.size()).isEqualTo(1);
        var dep = new Manifests.Dependency("PyPI", Manifests.normalize("PyPI", "left.pad"), "1.0", "r", 1);
        assertThat(advisories.affecting(dep)).singleElement().satisfies(a -> {
            assertThat(a.id()).isEqualTo("TEST-1");
            assertThat(a.severity()).isEqualTo(Severity.MEDIUM);
        });
    }

    /** Hostile manifests: each is reported or skipped, never thrown, never expanded, never fetched. */
    @Test
    void whenManifestsAreHostileThenTheyAreReportedNotThrown() {
        Map<String, String> hostile = new java.util.LinkedHashMap<>();
        hostile.put("pom.xml", "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\"><!ENTITY lol2 "
                + "\"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">]><project><dependencies><dependency>"
                + "<groupId>&lol2;</groupId><artifactId>a</artifactId><version>1</version></dependency></dependencies>"
                + "</project>");
        hostile.put("x/pom.xml", "<?xml version=\"1.0\"?><!DOCTYPE p [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>"
                + "<project><version>&xxe;</version></project>");
        hostile.put("y/pom.xml", "<project><dependencies><dependency><groupId>g</groupId>");
        hostile.put("z/pom.xml", "<notaproject/>");
        hostile.put("w/pom.xml", "\u0000\u0001binary");
        hostile.put("package.json", "{\"dependencies\": ");
        hostile.put("a/package.json", "[1,2,3]");
        hostile.put("b/package.json", "[".repeat(10_000));
        hostile.put("c/package.json", "{\"dependencies\": {\"" + "n".repeat(300) + "\": \"1.0.0\"}, "
                + "\"devDependencies\": \"oops\"}");
        hostile.put("requirements.txt", "==\n===1\n" + "a".repeat(600) + "==1\nname==\n\u0000==1\n[x]==1\n"
                + "pkg==1.0==2.0\n");
        for (var e : hostile.entrySet()) {
            assertThatCode(() -> Manifests.read(e.getKey(), e.getValue())).as(e.getKey()).doesNotThrowAnyException();
        }
        assertThat(Manifests.read("pom.xml", hostile.get("pom.xml")).problems()).isNotEmpty();
        assertThat(Manifests.read("x/pom.xml", hostile.get("x/pom.xml")).problems()).isNotEmpty();
        assertThat(Manifests.read("package.json", hostile.get("package.json")).problems()).isNotEmpty();
        assertThat(Manifests.read("b/package.json", hostile.get("b/package.json")).problems()).isNotEmpty();
        assertThat(Manifests.read("requirements.txt", hostile.get("requirements.txt")).dependencies()).isEmpty();
    }

    /** Seeded mutations of valid manifests: the parsers answer (dependencies or problems), never throw. */
    @Test
    void whenManifestsAreMutatedAtRandomThenTheParsersNeverThrow() {
        var random = new Random(SEED);
        Map<String, String> valid = Map.of(
                "requirements.txt", "pyyaml==5.3.1\nrequests[socks]==2.25.1 ; os_name == 'posix'\n# c\n",
                "package.json", "{\"dependencies\": {\"lodash\": \"^4.17.15\"}, \"devDependencies\": {\"a\": \"~1.0.0\"}}",
                "pom.xml", "<project><properties><v>2.14.1</v></properties><dependencies><dependency><groupId>g"
                        + "</groupId><artifactId>a</artifactId><version>${v}</version></dependency></dependencies>"
                        + "</project>");
        String junk = "<>&;\"'{}[]=~^!\\\u0000\u00ff\n\r${}";
        for (int round = 0; round < ROUNDS; round++) {
            for (var e : valid.entrySet()) {
                var text = new StringBuilder(e.getValue());
                int edits = 1 + random.nextInt(8);
                for (int i = 0; i < edits && text.length() > 0; i++) {
                    int at = random.nextInt(text.length());
                    switch (random.nextInt(3)) {
                        case 0 -> text.deleteCharAt(at);
                        case 1 -> text.insert(at, junk.charAt(random.nextInt(junk.length())));
                        default -> text.setCharAt(at, (char) random.nextInt(0x3000));
                    }
                }
                int r = round;
                assertThatCode(() -> {
                    var read = Manifests.read(e.getKey(), text.toString());
                    read.dependencies().forEach(BUNDLED::affecting);
                }).as("round %d of seed %d: %s", r, SEED, e.getKey()).doesNotThrowAnyException();
            }
        }
    }

    @Test
    void whenVersionsAreRandomThenTheOrderIsConsistent() {
        var random = new Random(SEED);
        String alphabet = "0123456789.-abrcdevpost!+_";
        for (int round = 0; round < ROUNDS; round++) {
            String[] v = new String[3];
            for (int k = 0; k < 3; k++) {
                var s = new StringBuilder();
                int n = random.nextInt(12);
                for (int i = 0; i < n; i++) {
                    s.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
                v[k] = s.toString();
            }
            var order = VersionOrder.INSTANCE;
            String m = "round " + round + " of seed " + SEED + ": " + List.of(v);
            assertThat(Integer.signum(order.compare(v[0], v[1]))).as(m).isEqualTo(-Integer.signum(order.compare(v[1], v[0])));
            if (order.compare(v[0], v[1]) <= 0 && order.compare(v[1], v[2]) <= 0) {
                assertThat(order.compare(v[0], v[2])).as(m).isLessThanOrEqualTo(0);
            }
        }
    }
}
