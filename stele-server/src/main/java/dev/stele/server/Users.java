package dev.stele.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.bouncycastle.crypto.params.Argon2Parameters;
import org.jspecify.annotations.Nullable;

/**
 * The users directory, laid out as Kubernetes mounts a Secret: one file per user, named after the
 * user, holding the password itself or its bcrypt ({@code $2a$}, {@code $2b$}, {@code $2y$}) or
 * argon2id ({@code $argon2id$}) hash. Nothing is cached: each login reads the user's file again, so
 * a user added, changed or removed in the Secret counts at the next login, without a restart.
 */
final class Users {
  /** Names a user may have: a file name in a Secret's mount, never hidden, never a path. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_@-][A-Za-z0-9._@-]{0,252}");

  private static final Pattern ARGON2ID =
      Pattern.compile(
          "\\$argon2id\\$v=19\\$m=(\\d+),t=(\\d+),p=(\\d+)\\$([A-Za-z0-9+/]+)\\$([A-Za-z0-9+/]+)");

  private final Path dir;

  Users(Path dir) {
    this.dir = dir;
  }

  /**
   * Whether {@code user} is listed and {@code password} is theirs. A plain password is compared in
   * constant time (as digests, so its length shows nothing either), and an unknown user costs the
   * same comparison as a known one.
   */
  boolean check(String user, String password) throws IOException {
    String stored = stored(user);
    if (stored == null) {
      MessageDigest.isEqual(sha256(password), sha256("not a user"));
      return false;
    }
    if (stored.startsWith("$2a$") || stored.startsWith("$2b$") || stored.startsWith("$2y$")) {
      try {
        return OpenBSDBCrypt.checkPassword(stored, password.toCharArray());
      } catch (IllegalArgumentException e) {
        throw new IOException("user " + user + ": the bcrypt hash does not parse", e);
      }
    }
    if (stored.startsWith("$argon2id$")) {
      return argon2id(user, stored, password);
    }
    return MessageDigest.isEqual(sha256(stored), sha256(password));
  }

  /** The user's file content without a final line break, or null if there is no such user. */
  private @Nullable String stored(String user) throws IOException {
    if (!NAME.matcher(user).matches()) {
      return null;
    }
    Path file = dir.resolve(user);
    if (!Files.isRegularFile(file)) {
      return null;
    }
    String s = Files.readString(file, StandardCharsets.UTF_8);
    if (s.endsWith("\n")) {
      s = s.substring(0, s.length() - 1);
    }
    if (s.endsWith("\r")) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }

  private static boolean argon2id(String user, String stored, String password) throws IOException {
    Matcher m = ARGON2ID.matcher(stored);
    if (!m.matches()) {
      throw new IOException(
          "user "
              + user
              + ": the argon2id hash does not parse ($argon2id$v=19$m=,t=,p=$salt$hash)");
    }
    Base64.Decoder b64 = Base64.getDecoder();
    byte[] expected = b64.decode(m.group(5));
    Argon2Parameters params =
        new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
            .withVersion(Argon2Parameters.ARGON2_VERSION_13)
            .withMemoryAsKB(Integer.parseInt(m.group(1)))
            .withIterations(Integer.parseInt(m.group(2)))
            .withParallelism(Integer.parseInt(m.group(3)))
            .withSalt(b64.decode(m.group(4)))
            .build();
    Argon2BytesGenerator generator = new Argon2BytesGenerator();
    generator.init(params);
    byte[] actual = new byte[expected.length];
    generator.generateBytes(password.getBytes(StandardCharsets.UTF_8), actual);
    return MessageDigest.isEqual(expected, actual);
  }

  static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
