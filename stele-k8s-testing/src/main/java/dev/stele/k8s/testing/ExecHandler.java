package dev.stele.k8s.testing;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/**
 * What running a command in a container of the test server's pods does ({@link ApiServer#onExec}):
 * a test's stand-in for the container runtime behind {@code pods/exec}.
 *
 * <p>Concurrency: called on a thread of the server's own, one per exec request, so it may block (a
 * delay of its own, a latch) without holding up other requests.
 */
@FunctionalInterface
public interface ExecHandler {
  /**
   * Runs {@code command} (the argv as the client sent it, never through a shell) in {@code
   * container} of {@code pod}, which exists and has that container.
   */
  ExecResult run(Pod pod, String container, List<String> command) throws Exception;
}
