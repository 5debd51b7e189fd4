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

  @SuppressWarnings("ArrayRecordComponent") // equals would be identity on the array: never compared
  record Payload(byte[] secret, String format) {}

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
    byte[] payload = Json.write(new Payload(key.secret(), formatHash.hex()));
    byte[] sealed = Aead.seal(kek, AAD, payload);
    Arrays.fill(payload, (byte) 0);
    return Json.write(new Stored(VERSION, now, host, kdf, sealed));
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
    Stored stored = Json.readVersioned(name, blob, Stored.class, VERSION);
    byte[] kek = Kdf.derive(password, stored.kdf());
    try {
      return open(kek, stored);
    } finally {
      Arrays.fill(kek, (byte) 0);
    }
  }

  private static Opened open(byte[] kek, Stored stored) throws IOException {
    try {
      Payload payload = Json.read(Aead.open(kek, AAD, stored.sealed()), Payload.class);
      return new Opened(new MasterKey(payload.secret()), Id.parse(payload.format()), stored);
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
    if (open(zero, Json.readVersioned(PREFIX, blob, Stored.class, VERSION)) == null) {
      throw new CorruptBlobException(PREFIX, "the rehearsal's key blob does not open");
    }
  }

  /** Reads the public part of a key blob, without a password. */
  static Stored describe(String name, byte[] blob) throws IOException {
    try {
      return Json.read(blob, Stored.class);
    } catch (IOException e) {
      throw new CorruptBlobException(name, "not a key blob", e);
    }
  }

  record Opened(MasterKey key, Id formatHash, Stored stored) {}
}
