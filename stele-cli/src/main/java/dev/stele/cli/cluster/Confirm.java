package dev.stele.cli.cluster;

import dev.stele.cli.CliEnvironment;
import dev.stele.cli.CliException;
import java.util.List;
import java.util.Locale;

/**
 * Velero's {@code --confirm}: a command that deletes asks {@code [y/N]} at the terminal, or goes on
 * without asking when given {@code --confirm}; off a terminal without it, nothing is done (exit 2).
 */
final class Confirm {
  private Confirm() {}

  /**
   * True to go on deleting the {@code kind} (singular) named {@code names} in {@code namespace}:
   * {@code confirm} given, or {@code y} answered; {@code note} (or "") ends the question.
   */
  static boolean delete(
      CliEnvironment env,
      boolean confirm,
      String kind,
      List<String> names,
      String namespace,
      String note) {
    if (confirm) {
      return true;
    }
    if (!env.interactive()) {
      throw CliException.usage(
          "not deleting without confirmation: give --confirm (no terminal to ask on)");
    }
    String question =
        "Delete "
            + kind
            + (names.size() == 1 ? " " : "s ")
            + String.join(", ", names)
            + " in namespace "
            + namespace
            + note
            + "?";
    String answer = env.terminal().readLine(question + " [y/N] ");
    String a = answer == null ? "" : answer.strip().toLowerCase(Locale.ROOT);
    return a.equals("y") || a.equals("yes");
  }
}
