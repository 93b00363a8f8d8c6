package dev.atrium.containerit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * What a micro-deployment takes from the test's class path (read on the client side, when the deployment is built):
 * the jars that hold some classes, for {@code WEB-INF/lib}, and the resources under a folder of the jar or class
 * directory that holds a class (the EJB module's migrations).
 */
public final class Libraries {

    private Libraries() {
    }

    /** The jars the classes come from, one each. */
    public static File[] jarsOf(Class<?>... classes) {
        return Arrays.stream(classes).map(Libraries::location).map(Path::toFile).distinct().toArray(File[]::new);
    }

    /** The names of the resources under {@code folder} beside {@code anchor}, for {@code addAsResource(name)}. */
    public static List<String> resources(Class<?> anchor, String folder) {
        Path location = location(anchor);
        var names = new ArrayList<String>();
        try {
            if (Files.isDirectory(location)) {
                try (Stream<Path> files = Files.walk(location.resolve(folder))) {
                    files.filter(Files::isRegularFile).map(f -> location.relativize(f).toString())
                            .forEach(name -> names.add(name.replace(File.separatorChar, '/')));
                }
            } else {
                try (var jar = new ZipFile(location.toFile())) {
                    jar.stream().filter(e -> !e.isDirectory() && e.getName().startsWith(folder + "/"))
                            .forEach(e -> names.add(e.getName()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    private static Path location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
