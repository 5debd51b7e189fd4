package dev.stele.repo;

import dev.stele.crypto.Aead;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;

/**
 * The sealed form of every standalone blob (index, snapshot, tombstone, maintenance record):
 *
 * <pre>
 * "STLB" | version u8 = 1 | kind u8 | iv[16] | AES-256-CTR(flag u8 ‖ payload) | tag[32]
 * </pre>
 *
 * sealed with {@link dev.stele.crypto.Aead} under the master key's blob subkey, AAD the first six
 * bytes (the tag covers them). A blob is named {@code <family>/<sha256 of all its bytes>}, so it
 * verifies against its name before it is decrypted.
 */
final class Envelope {
  private static final byte[] MAGIC = "STLB".getBytes(StandardCharsets.US_ASCII);
  private static final int HEADER = 6;

  private Envelope() {}

  static byte[] seal(byte[] blobKey, BlobKind kind, byte[] payload, int level) {
    byte[] header = header(kind);
    Compression.Framed framed = Compression.frame(payload, 0, payload.length, level);
    byte[] sealed = Aead.seal(blobKey, header, framed.bytes(), 0, framed.length());
    byte[] out = Arrays.copyOf(header, HEADER + sealed.length);
    System.arraycopy(sealed, 0, out, HEADER, sealed.length);
    return out;
  }

  /** Verifies {@code blob} against {@code name} and its tag, and returns the payload. */
  static byte[] open(byte[] blobKey, BlobKind kind, String name, byte[] blob) throws IOException {
    Id expected = kind.idOf(name);
    if (expected == null) {
      throw new IllegalArgumentException(name + " is not a " + kind + " blob name");
    }
    if (!Sha256.of(blob).equals(expected)) {
      throw new CorruptBlobException(name, "content does not match its name");
    }
    byte[] header = header(kind);
    if (blob.length < HEADER || !Arrays.equals(blob, 0, HEADER, header, 0, HEADER)) {
      throw new CorruptBlobException(name, "not a sealed " + kind + " blob");
    }
    try {
      byte[] framed = Aead.open(blobKey, header, blob, HEADER, blob.length - HEADER);
      return Compression.unframe(framed, name);
    } catch (AEADBadTagException e) {
      throw new CorruptBlobException(name, "authentication failed (another repository's key?)");
    }
  }

  private static byte[] header(BlobKind kind) {
    byte[] header = Arrays.copyOf(MAGIC, HEADER);
    header[4] = 1;
    header[5] = kind.code;
    return header;
  }
}
