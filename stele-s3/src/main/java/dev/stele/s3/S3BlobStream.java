package dev.stele.s3;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One object read as a stream ({@link dev.stele.blob.BlobStore#openStream}): one GET, its body read
 * as it arrives.
 *
 * <p>{@link S3Api#get} retries a GET until its answer starts; a body that breaks off after that (a
 * reset, a timeout, fewer bytes than its Content-Length) is this class's to handle, since a whole
 * read would have been retried. It resumes where the body stopped, with a ranged GET of the same
 * version (by its version id, or {@code If-Match} its ETag on a bucket without versions), up to the
 * store's attempt limit with its backoff; a changed object (412) is a failure, never a splice of
 * two.
 *
 * <p>Concurrency: for one thread, as streams are.
 */
final class S3BlobStream extends InputStream {
  private final S3Api api;
  private final S3Retries retries;
  private final String key;
  private final String what;
  private final Function<S3Failure, IOException> failure;
  private final long length;
  private final @Nullable String versionId;
  private final @Nullable String eTag;
  private S3Http.Response body;
  private long position;
  private int attempts = 1;

  private S3BlobStream(
      S3Api api,
      S3Retries retries,
      String key,
      String what,
      Function<S3Failure, IOException> failure,
      S3Http.Response body)
      throws IOException {
    this.api = api;
    this.retries = retries;
    this.key = key;
    this.what = what;
    this.failure = failure;
    this.body = body;
    S3Api.Head head = S3Api.headOf(body);
    if (head.length() < 0) {
      body.abort();
      throw new IOException(what + ": the answer has no Content-Length");
    }
    this.length = head.length();
    this.versionId = head.versionId();
    this.eTag = head.eTag();
  }

  /**
   * Opens {@code key}, or its {@code versionId} if not null ({@code what} in messages); a failure
   * of the GET is what {@code failure} makes of it (404: {@link
   * dev.stele.blob.BlobNotFoundException}).
   */
  static S3BlobStream open(
      S3Api api,
      S3Retries retries,
      String key,
      @Nullable String versionId,
      String what,
      Function<S3Failure, IOException> failure)
      throws IOException {
    S3Http.Response body;
    try {
      body = api.get(key, versionId, null, null);
    } catch (S3Failure e) {
      throw failure.apply(e);
    }
    return new S3BlobStream(api, retries, key, what, failure, body);
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    while (true) {
      if (position >= length) {
        return -1;
      }
      IOException broken;
      try {
        int n = body.body().read(b, off, (int) Math.min(len, length - position));
        if (n > 0) {
          position += n;
          return n;
        }
        broken = new EOFException(what + ": the body ended at byte " + position + " of " + length);
      } catch (IOException e) {
        broken = e;
      }
      resume(broken);
    }
  }

  /**
   * Reopens the object at {@link #position} after {@code broken}, or throws it when out of tries.
   */
  private void resume(IOException broken) throws IOException {
    body.abort();
    while (true) {
      if (attempts >= retries.maxAttempts()) {
        throw new IOException(
            what + ": broke off at byte " + position + " of " + length + " " + attempts + " times",
            broken);
      }
      retries.pause(attempts);
      attempts++;
      String range = "bytes=" + position + "-" + (length - 1);
      try {
        body = api.get(key, versionId, range, versionId == null ? eTag : null);
        return;
      } catch (S3Failure e) {
        if (e.status() == 412) {
          throw new IOException(what + ": changed while being read", e);
        }
        if (!S3Retries.retryable(e)) {
          throw failure.apply(e);
        }
        broken.addSuppressed(e);
      }
    }
  }

  @Override
  public void close() throws IOException {
    if (position < length) {
      body.abort(); // rather than read the rest of the body off the connection
    }
    body.close();
  }
}
