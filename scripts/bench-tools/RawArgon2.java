import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.LongAdder;

import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

import com.password4j.Argon2Function;
import com.password4j.Password;
import com.password4j.types.Argon2;

import de.mkammerer.argon2.Argon2Advanced;
import de.mkammerer.argon2.Argon2Factory;

/**
 * The raw argon2id verification rate of the library the server uses, with its parameters (19 MiB, 2 passes, 1 lane),
 * outside any server: the ceiling of password logins on this machine. ENGINE is native (libargon2 through JNA) or
 * java (password4j), as the server's log says it hashes.
 *
 *   java -cp password4j.jar:slf4j-api.jar:argon2-jvm-nolibs.jar:jna.jar RawArgon2.java THREADS SECONDS [ROUNDS [ENGINE]]
 *
 * prints the best rate (verifications/s) of ROUNDS (4) rounds that share the SECONDS, and the process's CPU time
 * per verification (ms) over all of them.
 */
public class RawArgon2 {

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        long seconds = Long.parseLong(args[1]);
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        boolean nativeEngine = args.length > 3 && args[3].equals("native");
        Argon2Function argon2 = Argon2Function.getInstance(19_456, 2, 1, 32, Argon2.ID);
        String hash = Password.hash("Bench-Passw0rd").addRandomSalt(16).with(argon2).getResult();
        Predicate<String> check;
        if (nativeEngine) {
            Argon2Advanced lib = Argon2Factory.createAdvanced(Argon2Factory.Argon2Types.ARGON2id, 16, 32);
            check = h -> lib.verify(h, "Bench-Passw0rd".toCharArray(), StandardCharsets.UTF_8);
        } else {
            check = h -> Password.check("Bench-Passw0rd", h).with(Argon2Function.getInstanceFromHash(h));
        }
        checker = check;
        for (int i = 0; i < 20; i++) {
            check(hash);
        }
        // this machine's neighbours come and go: the best of a few short rounds is what the hash allows
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        double best = 0;
        long cpuBefore = os.getProcessCpuTime();
        long count = 0;
        for (int round = 0; round < rounds; round++) {
            double[] result = round(hash, threads, seconds * 1_000_000_000L / rounds);
            best = Math.max(best, result[0]);
            count += (long) result[1];
        }
        // CPU per verification is what neighbours change least: the rate this machine's cores allow without them
        double cpuMillis = (os.getProcessCpuTime() - cpuBefore) / 1e6 / count;
        System.out.printf("%.1f %.1f%n", best, cpuMillis);
    }

    private static double[] round(String hash, int threads, long nanos) throws InterruptedException {
        LongAdder done = new LongAdder();
        long end = System.nanoTime() + nanos;
        Thread[] workers = new Thread[threads];
        long started = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            workers[t] = new Thread(() -> {
                while (System.nanoTime() < end) {
                    check(hash);
                    done.increment();
                }
            });
            workers[t].start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        return new double[] {done.sum() / ((System.nanoTime() - started) / 1e9), done.sum()};
    }

    private static Predicate<String> checker;

    private static void check(String hash) {
        if (!checker.test(hash)) {
            throw new IllegalStateException("the hash does not verify");
        }
    }
}
