package dev.stele.operator.hook;

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
