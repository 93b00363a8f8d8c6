package dev.atrium.containerit.batch;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

/** What the job's reader read and its writer wrote, per run (a job parameter), in order; and the failure once. */
@ApplicationScoped
public class BatchLog {

    private final Map<String, List<Integer>> read = new ConcurrentHashMap<>();
    private final Map<String, List<Integer>> written = new ConcurrentHashMap<>();
    private final Map<String, Boolean> failed = new ConcurrentHashMap<>();

    void read(String run, int item) {
        read.computeIfAbsent(run, r -> new CopyOnWriteArrayList<>()).add(item);
    }

    void written(String run, List<Integer> items) {
        written.computeIfAbsent(run, r -> new CopyOnWriteArrayList<>()).addAll(items);
    }

    /** True the first time only: the writer's one failure of the run. */
    boolean failNow(String run) {
        return failed.putIfAbsent(run, Boolean.TRUE) == null;
    }

    public List<Integer> read(String run) {
        return List.copyOf(read.getOrDefault(run, List.of()));
    }

    public List<Integer> written(String run) {
        return List.copyOf(written.getOrDefault(run, List.of()));
    }
}
