package dev.stele.s3;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * One object read as a stream ({@link dev.stele.blob.BlobStore#openStream}): one GET, its body read
 * as it arrives.
 *
 * <p>The SDK retries a GET until its answer starts; a body that breaks off after that (a reset, a
 * timeout, fewer bytes than its Content-Length) is this class's to handle, since a whole read would
 * have been retried. It resumes where the body stopped, with a ranged GET of the same version (by
 * its version id, or {@code If-Match} its ETag on a bucket without versions), up to the store's
 * attempt limit with its backoff; a changed object (412) is a failure, never a splice of two.
 *
 * <p>Concurrency: for one thread, as streams are.
 */
final class S3BlobStream extends InputStream {
  private final S3Clients clients;
  private final S3Retries retries;
  private final String bucket;
  private final String what;
  private final Consumer<GetObjectRequest.Builder> request;
  private final Function<SdkException, IOException> failure;
  private final long length;
  private final @Nullable String versionId;
  private final @Nullable String eTag;
  private ResponseInputStream<GetObjectResponse> body;
  private long position;
  private int attempts = 1;

  private S3BlobStream(
      S3Clients clients,
      S3Retries retries,
      String bucket,
      String what,
      Consumer<GetObjectRequest.Builder> request,
      Function<SdkException, IOException> failure,
      ResponseInputStream<GetObjectResponse> body) {
    this.clients = clients;
    this.retries = retries;
    this.bucket = bucket;
    this.what = what;
    this.request = request;
    this.failure = failure;
    this.body = body;
    GetObjectResponse response = body.response();
    this.length = Objects.requireNonNull(response.contentLength(), "Content-Length");
    // "null" is the version id S3 gives objects written while versioning was off.
    this.versionId =
        response.versionId() == null || response.versionId().equals("null")
            ? null
            : response.versionId();
    this.eTag = response.eTag();
  }

  /**
   * Opens the object that {@code request} names ({@code what} in messages); a failure of the GET is
   * what {@code failure} makes of it (404: {@link dev.stele.blob.BlobNotFoundException}).
   */
  static S3BlobStream open(
      S3Clients clients,
      S3Retries retries,
      String bucket,
      String what,
      Consumer<GetObjectRequest.Builder> request,
      Function<SdkException, IOException> failure)
      throws IOException {
    ResponseInputStream<GetObjectResponse> body;
    try {
      body = clients.reads.getObject(b -> request.accept(b.bucket(bucket)));
    } catch (SdkException e) {
      throw failure.apply(e);
    }
    return new S3BlobStream(clients, retries, bucket, what, request, failure, body);
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
        int n = body.read(b, off, (int) Math.min(len, length - position));
        if (n > 0) {
          position += n;
          return n;
        }
        broken = new EOFException(what + ": the body ended at byte " + position + " of " + length);
      } catch (IOException | SdkException e) {
        broken =
            e instanceof IOException io
                ? io
                : new IOException(what + ": reading failed at byte " + position, e);
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
        body =
            clients.reads.getObject(
                b -> {
                  request.accept(b.bucket(bucket).range(range));
                  if (versionId != null) {
                    b.versionId(versionId);
                  } else if (eTag != null) {
                    b.ifMatch(eTag);
                  }
                });
        return;
      } catch (SdkException e) {
        if (S3Errors.status(e) == 412) {
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
