package dev.stele.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.stele.repo.Json;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The repository server {@code stele repo connect} saved for later commands: its URL, the user, and
 * how it is trusted (the pinned fingerprint or a CA file's path) — never the password. It is kept
 * in {@code $XDG_CONFIG_HOME/stele/server.json} ({@code ~/.config/stele/server.json} without it),
 * readable by its owner only; a connect writes a new file and moves it over the old one.
 *
 * @param fingerprint {@code sha256:<hex>}, or null if {@code caCert} is set
 * @param caCert an absolute path to PEM CA certificates, or null if {@code fingerprint} is set
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record ServerConnection(String url, String user, String fingerprint, String caCert) {
  /** The file, or null if neither {@code XDG_CONFIG_HOME} nor {@code HOME} is set. */
  static Path file(CliEnvironment env) {
    Path directory = env.userDirectory("XDG_CONFIG_HOME", ".config");
    return directory == null ? null : directory.resolve("server.json");
  }

  /** The saved connection, or null if there is none. */
  static ServerConnection load(CliEnvironment env) {
    Path file = file(env);
    if (file == null) {
      return null;
    }
    try {
      return Json.MAPPER.readValue(Files.readAllBytes(file), ServerConnection.class);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new CliException(
          ExitCode.ERROR,
          "cannot read the saved connection "
              + file
              + " ("
              + e.getMessage().lines().findFirst().orElse("")
              + "); run 'stele repo connect' again or 'stele repo disconnect'",
          e);
    }
  }

  /** Saves this connection, mode 0600, in place of any before. Returns the file. */
  Path save(CliEnvironment env) throws IOException {
    Path file = file(env);
    if (file == null) {
      throw CliException.usage("nowhere to save the connection: set HOME or XDG_CONFIG_HOME");
    }
    Path dir = Files.createDirectories(file.getParent());
    Path temp =
        Files.createTempFile(
            dir,
            ".server",
            ".json",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try {
      Files.write(temp, Json.write(this));
      try {
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
    return file;
  }

  /** Removes the saved connection; returns it, or null if there was none. */
  static ServerConnection remove(CliEnvironment env) throws IOException {
    ServerConnection saved = load(env);
    if (saved != null) {
      Files.deleteIfExists(file(env));
    }
    return saved;
  }
}
