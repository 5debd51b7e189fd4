package dev.stele.chunk;

import java.io.IOException;

/** Receives chunks from a {@link ChunkStream}. */
@FunctionalInterface
public interface ChunkSink {
  /**
   * Accepts the chunk {@code buf[off..off+len-1]}.
   *
   * <p>The bytes are a view into the stream's reusable buffer: they are valid only until this call
   * returns, so a sink that keeps them must copy them.
   *
   * @throws IOException to stop chunking; {@link ChunkStream} passes it on to its caller
   */
  void accept(byte[] buf, int off, int len) throws IOException;
}
