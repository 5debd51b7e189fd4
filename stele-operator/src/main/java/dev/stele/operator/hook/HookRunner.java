package dev.stele.operator.hook;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a pod's hooks in order, each with its timeout; a Fail hook that fails stops the ones after
 * it (Velero's rule), a Continue hook that fails is a warning and the next runs.
 *
 * <p>Concurrency: one call at a time per caller; calls share nothing but the client.
 */
public final class HookRunner {
  private final PodExec exec;

  public HookRunner(KubernetesClient client, Clock clock) {
    this.exec = new PodExec(client, clock);
  }

  /** Whether {@link #run} stopped at a failing Fail hook, and what it did. */
  public record Outcome(HookReport report, boolean stopped) {}

  /**
   * Runs {@code hooks} in {@code pod}; {@code phase} ("pre", "post", "post-restore") names them in
   * the log.
   */
  public Outcome run(Pod pod, String phase, List<Hook> hooks) {
    String where = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    int attempted = 0;
    int failed = 0;
    List<String> log = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (Hook hook : hooks) {
      attempted++;
      String container =
          hook.container() != null
              ? hook.container()
              : pod.getSpec().getContainers().get(0).getName();
      String what =
          phase + " hook " + hook.name() + " in pod " + where + ", container " + container;
      PodExec.Result r = exec.run(pod, container, hook.command(), hook.timeout());
      String ended = r.failure() != null ? r.failure() : "exit code " + r.exitCode();
      log.add(
          what + ": " + hook.command() + ": " + ended + " after " + r.took().toMillis() + " ms");
      output(log, "stdout", r.stdout());
      output(log, "stderr", r.stderr());
      if (r.succeeded()) {
        continue;
      }
      failed++;
      String why = what + ": " + ended + firstLine(r.stderr());
      if (hook.failOnError()) {
        errors.add(why);
        log.add("error: " + why);
        return new Outcome(new HookReport(attempted, failed, log, warnings, errors), true);
      }
      warnings.add(why);
      log.add("warning: " + why + " (on-error Continue)");
    }
    return new Outcome(new HookReport(attempted, failed, log, warnings, errors), false);
  }

  private static void output(List<String> log, String stream, String text) {
    for (String line : text.strip().split("\n", -1)) {
      if (!line.isEmpty()) {
        log.add("  " + stream + ": " + line);
      }
    }
  }

  private static String firstLine(String stderr) {
    String s = stderr.strip();
    if (s.isEmpty()) {
      return "";
    }
    int nl = s.indexOf('\n');
    String line = nl < 0 ? s : s.substring(0, nl);
    return ": " + (line.length() > 200 ? line.substring(0, 200) + "..." : line);
  }
}
