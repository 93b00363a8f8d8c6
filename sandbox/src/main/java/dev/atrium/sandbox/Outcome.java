package dev.atrium.sandbox;

/** How a run ended. Only {@code EXITED} with exit code 0 is a run that finished on its own terms. */
public enum Outcome {
    /** The process exited (any exit code) within its limits. */
    EXITED,
    /** The wall-clock timeout passed; the whole process tree was killed. */
    TIMED_OUT,
    /** The memory limit was reached (the kernel's OOM killer, counted by the cgroup). */
    MEMORY_LIMIT,
    /** stdout or stderr passed its cap; the run was killed. */
    OUTPUT_LIMIT,
    /** The process died of a signal for another reason (for example the process-count limit made it fail). */
    KILLED
}
