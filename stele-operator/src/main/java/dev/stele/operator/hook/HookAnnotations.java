package dev.stele.operator.hook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.k8s.api.Durations;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Hooks a pod declares in its annotations, Velero's and Stele's spellings: {@code
 * <kind>.velero.io/<field>} or {@code <kind>.stele.dev/<field>}, such as {@code
 * pre.hook.backup.velero.io/command}. The Stele spelling wins when a pod has both commands.
 *
 * <p>A command is a JSON array of strings ({@code ["/bin/fsfreeze", "--freeze", "/data"]}) or one
 * string, which is the whole argv[0]: nothing is split, nothing runs through a shell.
 */
public final class HookAnnotations {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> DOMAINS = List.of("stele.dev", "velero.io");

  private final Map<String, String> annotations;
  private final String domain;
  private final String kind;

  private HookAnnotations(Map<String, String> annotations, String kind, String domain) {
    this.annotations = annotations;
    this.kind = kind;
    this.domain = domain;
  }

  /**
   * The annotations of {@code kind} ({@code pre.hook.backup}, {@code post.hook.restore}, ...) of
   * the spelling that names a command ({@code commandField}), or null when neither does.
   */
  static @Nullable HookAnnotations of(
      @Nullable Map<String, String> annotations, String kind, String commandField) {
    if (annotations == null) {
      return null;
    }
    for (String domain : DOMAINS) {
      if (annotations.containsKey(kind + "." + domain + "/" + commandField)) {
        return new HookAnnotations(annotations, kind, domain);
      }
    }
    return null;
  }

  /** The key of {@code field} in this spelling, as the log and messages name it. */
  String key(String field) {
    return kind + "." + domain + "/" + field;
  }

  @Nullable String get(String field) {
    String value = annotations.get(key(field));
    return value == null || value.isBlank() ? null : value.strip();
  }

  /** The argv {@code field} holds. */
  List<String> command(String field) {
    return parseCommand(key(field), get(field));
  }

  /** The duration {@code field} holds, or {@code fallback}. */
  Duration duration(String field, Duration fallback) {
    String value = get(field);
    if (value == null) {
      return fallback;
    }
    try {
      return Durations.parse(value, fallback);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key(field) + ": " + e.getMessage(), e);
    }
  }

  /** Whether {@code field} says Fail (or, unset, {@code byDefault}). */
  boolean failOnError(String field, boolean byDefault) {
    try {
      return Hook.failOnError(get(field), byDefault);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key(field) + ": " + e.getMessage(), e);
    }
  }

  /** A JSON array of strings, or one string that is the whole command. */
  static List<String> parseCommand(String where, @Nullable String value) {
    if (value == null) {
      throw new IllegalArgumentException(where + " is empty");
    }
    if (!value.startsWith("[")) {
      return List.of(value);
    }
    List<String> argv;
    try {
      argv = JSON.readValue(value, new TypeReference<List<String>>() {});
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          where + " is not a JSON array of strings: " + e.getOriginalMessage(), e);
    }
    if (argv.isEmpty() || argv.stream().anyMatch(a -> a == null)) {
      throw new IllegalArgumentException(where + " names no command");
    }
    return argv;
  }
}
