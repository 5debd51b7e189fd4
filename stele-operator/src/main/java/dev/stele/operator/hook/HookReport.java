package dev.stele.operator.hook;

import dev.stele.k8s.api.HookStatus;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What running some hooks did: how many were attempted and failed, the log lines (command, exit
 * code, duration, output), and each failure as a warning (Continue) or an error (Fail).
 *
 * @param attempted hooks run, or tried
 * @param failed of those, how many failed, timed out or could not run
 * @param log lines for the backup's or restore's log
 * @param warnings failures of Continue hooks, and hooks not run
 * @param errors failures of Fail hooks
 */
public record HookReport(
    int attempted, int failed, List<String> log, List<String> warnings, List<String> errors) {
  public static final HookReport NONE = new HookReport(0, 0, List.of(), List.of(), List.of());

  public HookReport {
    log = List.copyOf(log);
    warnings = List.copyOf(warnings);
    errors = List.copyOf(errors);
  }

  /** This report followed by {@code more}. */
  public HookReport plus(HookReport more) {
    return new HookReport(
        attempted + more.attempted,
        failed + more.failed,
        join(log, more.log),
        join(warnings, more.warnings),
        join(errors, more.errors));
  }

  /**
   * One hook that failed without running (an annotation that cannot be read, a pod that never got
   * ready): an error, or with {@code error} false a warning.
   */
  public static HookReport notRun(String why, boolean error) {
    return new HookReport(
        1,
        1,
        List.of((error ? "error: " : "warning: ") + why),
        error ? List.of() : List.of(why),
        error ? List.of(why) : List.of());
  }

  /** A report that only says something: a line for the log and a warning. */
  public static HookReport warning(String text) {
    return new HookReport(0, 0, List.of("warning: " + text), List.of(text), List.of());
  }

  /** {@code status} (a new one if null) with this report's counts added. */
  public HookStatus addTo(@Nullable HookStatus status) {
    HookStatus out = status == null ? new HookStatus() : status;
    out.hooksAttempted += attempted;
    out.hooksFailed += failed;
    return out;
  }

  /** Every failure, errors first: one Event each. */
  public List<String> failures() {
    return join(errors, warnings);
  }

  private static List<String> join(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
