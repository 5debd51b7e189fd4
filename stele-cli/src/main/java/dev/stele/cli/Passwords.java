package dev.stele.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Where passwords come from: a file given on the command line, then an environment variable, then
 * the terminal. Off a terminal with neither, a command fails with one line saying how to give one.
 */
final class Passwords {
  static final String PASSWORD = "STELE_PASSWORD";
  static final String NEW_PASSWORD = "STELE_NEW_PASSWORD";

  private Passwords() {}

  /** The password of an existing repository. */
  static char[] current(Path file, CliEnvironment env) {
    return current(file, env, "Repository password: ");
  }

  /** A password from the same places, the terminal asking with {@code prompt}. */
  static char[] current(Path file, CliEnvironment env, String prompt) {
    char[] found = fromFileOrVariable(file, PASSWORD, env);
    if (found != null) {
      return found;
    }
    if (env.interactive()) {
      char[] typed = env.terminal().readPassword(prompt);
      if (typed != null) {
        return typed;
      }
    }
    throw CliException.usage(
        "no password: set " + PASSWORD + ", use --password-file, or run on a terminal");
  }

  /** A new password: from {@code file}, then {@code variable}, then typed twice at the terminal. */
  static char[] fresh(Path file, String variable, String what, CliEnvironment env) {
    char[] found = fromFileOrVariable(file, variable, env);
    if (found == null && env.interactive()) {
      char[] first = env.terminal().readPassword("New " + what + ": ");
      char[] second = env.terminal().readPassword("Repeat " + what + ": ");
      if (first != null && second != null) {
        if (!Arrays.equals(first, second)) {
          throw CliException.usage("the passwords do not match");
        }
        found = first;
      }
    }
    if (found == null) {
      throw CliException.usage(
          "no " + what + ": set " + variable + ", use a password file, or run on a terminal");
    }
    if (found.length == 0) {
      throw CliException.usage("the " + what + " is empty");
    }
    return found;
  }

  private static char[] fromFileOrVariable(Path file, String variable, CliEnvironment env) {
    if (file != null) {
      return readFile(file);
    }
    String value = env.variable(variable);
    return value == null ? null : value.toCharArray();
  }

  /** The first line of {@code file}, without its line ending. */
  private static char[] readFile(Path file) {
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      int end = text.indexOf('\n');
      String line = end < 0 ? text : text.substring(0, end);
      return (line.endsWith("\r") ? line.substring(0, line.length() - 1) : line).toCharArray();
    } catch (NoSuchFileException e) {
      throw CliException.usage("password file " + file + " does not exist");
    } catch (IOException e) {
      throw CliException.usage("cannot read password file " + file + ": " + e.getMessage());
    }
  }
}
