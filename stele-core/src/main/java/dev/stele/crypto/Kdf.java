package dev.stele.crypto;

import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

/** Derives a 32-byte key-encryption key from a password, memory-hard (Argon2id). */
public final class Kdf {
  private Kdf() {}

  public static byte[] derive(char[] password, KdfParams params) {
    byte[] pw = utf8(password);
    try {
      Argon2Parameters argon =
          new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
              .withVersion(Argon2Parameters.ARGON2_VERSION_13)
              .withMemoryAsKB(params.memoryKiB())
              .withIterations(params.iterations())
              .withParallelism(params.parallelism())
              .withSalt(params.salt())
              .build();
      Argon2BytesGenerator generator = new Argon2BytesGenerator();
      generator.init(argon);
      byte[] out = new byte[32];
      generator.generateBytes(pw, out);
      return out;
    } finally {
      Arrays.fill(pw, (byte) 0);
    }
  }

  @SuppressWarnings("ByteBufferBackingArray") // wipes the whole backing array, whatever the offset
  private static byte[] utf8(char[] password) {
    var buffer = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password));
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    if (buffer.hasArray()) {
      Arrays.fill(buffer.array(), (byte) 0);
    }
    return bytes;
  }
}
