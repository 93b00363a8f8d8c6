package dev.atrium.marketplace.control.checks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.atrium.marketplace.entity.checks.CheckFinding;

/**
 * Check 3: the manifests in the bundle ({@code requirements.txt}, {@code package.json}, {@code pom.xml}, at any
 * depth) against the advisory file. A dependency an advisory of severity {@code HIGH} or {@code CRITICAL} affects is
 * a high finding (it rejects), any other advisory a medium one; a manifest that cannot be read is a low one.
 */
final class DependencyCheck {

    static final String NAME = "dependencies";

    /** What the check found, and how many dependencies it compared. */
    record Outcome(List<CheckFinding> findings, int manifests, int dependencies) {
    }

    private final Advisories advisories;

    DependencyCheck(Advisories advisories) {
        this.advisories = advisories;
    }

    /**
     * An image: its installed packages ({@link ImagePackages}) and the manifests of its application directory
     * ({@code appDir}, null when it has none). {@code withAdvisories} counts the packages an advisory affects.
     */
    Outcome checkImage(Path root, Path appDir, int[] withAdvisories) {
        var findings = new ArrayList<CheckFinding>();
        ImagePackages.Found installed = ImagePackages.read(root);
        findings.addAll(installed.notes());
        for (Manifests.Dependency d : installed.packages()) {
            var affecting = advisories.affecting(d);
            if (!affecting.isEmpty()) {
                withAdvisories[0]++;
            }
            for (Advisories.Advisory a : affecting) {
                String where = d.line() > 0 ? d.file() + ":" + d.line() : d.file();
                findings.add(new CheckFinding(a.severity(), where, d.ecosystem() + " package " + d.name() + " "
                        + d.version() + " is affected by " + a.label() + ": " + a.summary()));
            }
        }
        int manifests = 0;
        int dependencies = installed.packages().size();
        if (appDir != null) {
            Outcome app = check(appDir);
            findings.addAll(app.findings());
            manifests = app.manifests();
            dependencies += app.dependencies();
        }
        return new Outcome(findings, manifests, dependencies);
    }

    Outcome check(Path root) {
        var findings = new ArrayList<CheckFinding>();
        BundleFiles files = BundleFiles.of(root);
        int manifests = 0;
        int dependencies = 0;
        for (BundleFiles.BundleFile file : files.files()) {
            if (Manifests.kind(file.name()) == null) {
                continue;
            }
            var text = files.text(file);
            if (text.isEmpty()) {
                continue;
            }
            manifests++;
            Manifests.Read read = Manifests.read(file.name(), text.get());
            read.problems().forEach(p -> findings.add(CheckFinding.low(file.name(), "Not checked: " + p)));
            for (Manifests.Dependency d : read.dependencies()) {
                dependencies++;
                for (Advisories.Advisory a : advisories.affecting(d)) {
                    String where = d.line() > 0 ? d.file() + ":" + d.line() : d.file();
                    findings.add(new CheckFinding(a.severity(), where, d.ecosystem() + " " + d.name() + " "
                            + d.version() + " is affected by " + a.label() + ": " + a.summary()));
                }
            }
        }
        findings.addAll(files.notes().stream().filter(n -> Manifests.kind(n.pointer()) != null).toList());
        return new Outcome(findings, manifests, dependencies);
    }
}
