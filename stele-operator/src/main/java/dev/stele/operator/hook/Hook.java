package dev.stele.operator.hook;

import dev.stele.k8s.api.Durations;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One command to run in a pod's container, resolved from an annotation or a spec.
 *
 * @param name what the log and events call it ("annotations", or the spec hook's name)
 * @param container the container, or null for the pod's first
 * @param command the argv, passed to the container as it is (never to a shell)
 * @param failOnError whether a failure is an error (Fail) rather than a warning (Continue)
 * @param timeout how long the command may run
 * @param waitTimeout for restore hooks, how long to wait for the container to be ready; else null
 */
public record Hook(
    String name,
    @Nullable String container,
    List<String> command,
    boolean failOnError,
    Duration timeout,
    @Nullable Duration waitTimeout) {
  /** Velero's default for {@code timeout} and {@code execTimeout}. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  public Hook {
    command = List.copyOf(command);
  }

  /**
   * A hook from a spec's {@code exec} fields, checked; a wrong field is one line naming the hook.
   *
   * @param timeout the spec's timeout, or null for the default (as {@link Durations#parse} reads
   *     it)
   * @param failByDefault the spec's default for {@code onError}: Fail for backups, Continue for
   *     restores
   * @param defaultWait for restore hooks the default wait; null for backup hooks, which wait for
   *     nothing
   */
  static Hook ofSpec(
      String name,
      @Nullable String container,
      @Nullable List<String> command,
      @Nullable String onError,
      boolean failByDefault,
      String timeout,
      @Nullable String waitTimeout,
      @Nullable Duration defaultWait) {
    if (command == null || command.isEmpty()) {
      throw new IllegalArgumentException("hook " + name + " has no exec.command");
    }
    try {
      return new Hook(
          name,
          container,
          command,
          failOnError(onError, failByDefault),
          Durations.parse(timeout, DEFAULT_TIMEOUT),
          defaultWait == null
              ? null
              : Durations.parse(waitTimeout == null ? "" : waitTimeout, defaultWait));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("hook " + name + ": " + e.getMessage(), e);
    }
  }

  /** {@code Fail} or {@code Continue} (either case), or the default when null or blank. */
  static boolean failOnError(@Nullable String onError, boolean byDefault) {
    if (onError == null || onError.isBlank()) {
      return byDefault;
    }
    return switch (onError.strip().toLowerCase(java.util.Locale.ROOT)) {
      case "fail" -> true;
      case "continue" -> false;
      default ->
          throw new IllegalArgumentException(
              "on-error is " + onError + ": it takes Fail or Continue");
    };
  }
}
