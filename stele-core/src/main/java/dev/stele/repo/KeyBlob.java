package dev.stele.repo;

import dev.stele.crypto.Aead;
import dev.stele.crypto.Kdf;
import dev.stele.crypto.KdfParams;
import dev.stele.crypto.MasterKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;

/**
 * One password's key blob, {@code keys/<sha256 of the blob>}: the master key sealed with a key
 * derived from the password. Adding a password adds a blob; nothing is ever rewritten.
 *
 * <p>JSON: {@code {"version":1,"created":…,"host":…,"kdf":{…},"sealed":"<base64>"}}; {@code sealed}
 * is {@link dev.stele.crypto.Aead} under the KDF output, AAD {@code "stele key v1"}, of the JSON
 * {@code {"secret":"<base64 master key>","format":"<sha256 hex of stele.format>"}}.
 */
public final class KeyBlob {
  public static final String PREFIX = "keys/";
  private static final byte[] AAD = "stele key v1".getBytes(StandardCharsets.US_ASCII);

  /** The key blob version this Stele writes and reads. */
  static final int VERSION = 1;

  @SuppressWarnings("ArrayRecordComponent") // equals would be identity on the array: never compared
  record Stored(int version, Instant created, String host, KdfParams kdf, byte[] sealed) {}

  private KeyBlob() {}

  /** Seals {@code key} with {@code password}; returns the blob's bytes. */
  static byte[] seal(
      MasterKey key, Id formatHash, char[] password, KdfParams kdf, Instant now, String host) {
    byte[] kek = Kdf.derive(password, kdf);
    try {
      return seal(kek, key, formatHash, kdf, now, host);
    } finally {
      Arrays.fill(kek, (byte) 0);
    }
  }

  private static byte[] seal(
      byte[] kek, MasterKey key, Id formatHash, KdfParams kdf, Instant now, String host) {
    byte[] payload =
        JsonWriter.object(
            out -> out.bytes("secret", key.secret()).string("format", formatHash.hex()));
    byte[] sealed = Aead.seal(kek, AAD, payload);
    Arrays.fill(payload, (byte) 0);
    return JsonWriter.object(
        out ->
            out.number("version", VERSION)
                .instant("created", now)
                .string("host", host)
                .object(
                    "kdf",
                    k ->
                        k.string("algorithm", kdf.algorithm())
                            .number("memoryKiB", kdf.memoryKiB())
                            .number("iterations", kdf.iterations())
                            .number("parallelism", kdf.parallelism())
                            .bytes("salt", kdf.salt()))
                .bytes("sealed", sealed));
  }

  /**
   * Opens a key blob with {@code password}.
   *
   * @return the master key, or null if the password does not open this blob
   * @throws CorruptBlobException if the blob does not match its name or cannot be parsed
   * @throws UnsupportedVersionException if a newer Stele wrote the blob
   */
  static Opened open(String name, byte[] blob, char[] password) throws IOException {
    if (!name.equals(PREFIX + Sha256.of(blob).hex())) {
      throw new CorruptBlobException(name, "content does not match its name");
    }
    Stored stored = stored(JsonObject.versioned(name, blob, VERSION));
    byte[] kek = Kdf.derive(password, stored.kdf());
    try {
      return open(kek, stored);
    } finally {
      Arrays.fill(kek, (byte) 0);
    }
  }

  private static Opened open(byte[] kek, Stored stored) throws IOException {
    try {
      JsonObject payload = JsonObject.parse(PREFIX, Aead.open(kek, AAD, stored.sealed()));
      byte[] secret = payload.bytes("secret");
      String format = payload.string("format");
      if (secret == null || format == null) {
        throw payload.missing(secret == null ? "secret" : "format");
      }
      return new Opened(new MasterKey(secret), Id.parse(format), stored);
    } catch (AEADBadTagException e) {
      return null;
    }
  }

  /**
   * Seals a throwaway key and opens it again as {@link #seal} and {@link #open} do, under a zero
   * key-encryption key instead of one derived from a password: for {@link OpenPreparation}, which
   * loads what opening a key blob uses. Derives nothing.
   */
  static void rehearse(Id formatHash, Instant now) throws IOException {
    byte[] zero = new byte[32];
    KdfParams kdf = KdfParams.argon2id(8, 1, new byte[16]);
    byte[] blob = seal(zero, new MasterKey(zero), formatHash, kdf, now, "");
    if (open(zero, stored(JsonObject.versioned(PREFIX, blob, VERSION))) == null) {
      throw new CorruptBlobException(PREFIX, "the rehearsal's key blob does not open");
    }
  }

  /** Reads the public part of a key blob, without a password. */
  static Stored describe(String name, byte[] blob) throws IOException {
    try {
      return stored(JsonObject.parse(name, blob));
    } catch (CorruptBlobException e) {
      throw new CorruptBlobException(name, "not a key blob", e);
    }
  }

  /** The key blob's fields, as {@link #seal} writes them. */
  private static Stored stored(JsonObject json) throws CorruptBlobException {
    JsonObject kdf = json.object("kdf");
    byte[] sealed = json.bytes("sealed");
    if (kdf == null || sealed == null) {
      throw json.missing(kdf == null ? "kdf" : "sealed");
    }
    byte[] salt = kdf.bytes("salt");
    if (salt == null) {
      throw json.missing("kdf.salt");
    }
    try {
      return new Stored(
          json.integer("version"),
          json.instant("created"),
          json.string("host"),
          new KdfParams(
              kdf.string("algorithm"),
              kdf.integer("memoryKiB"),
              kdf.integer("iterations"),
              kdf.integer("parallelism"),
              salt),
          sealed);
    } catch (IllegalArgumentException e) {
      throw json.malformed("key blob", e);
    }
  }

  record Opened(MasterKey key, Id formatHash, Stored stored) {}
}
