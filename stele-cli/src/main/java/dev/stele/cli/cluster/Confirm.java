package dev.stele.cli.cluster;

import dev.stele.cli.CliEnvironment;
import dev.stele.cli.CliException;
import java.util.Locale;

/**
 * Velero's {@code --confirm}: a command that deletes asks {@code [y/N]} at the terminal, or goes on
 * without asking when given {@code --confirm}; off a terminal without it, nothing is done (exit 2).
 */
final class Confirm {
  private Confirm() {}

  /** True to go on: {@code confirm} given, or {@code y} answered to {@code question}. */
  static boolean ask(CliEnvironment env, boolean confirm, String question) {
    if (confirm) {
      return true;
    }
    if (!env.interactive()) {
      throw CliException.usage(
          "not deleting without confirmation: give --confirm (no terminal to ask on)");
    }
    String answer = env.terminal().readLine(question + " [y/N] ");
    String a = answer == null ? "" : answer.strip().toLowerCase(Locale.ROOT);
    return a.equals("y") || a.equals("yes");
  }
}
