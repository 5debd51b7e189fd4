package dev.stele.testing;

import dev.stele.blob.BlobExistsException;
import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNames;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobRetainedException;
import dev.stele.blob.BlobStore;
import dev.stele.blob.Capabilities;
import dev.stele.blob.Retention;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A blob store in memory that keeps the whole contract, retention included, for tests of everything
 * above the SPI.
 *
 * <p>It reports object lock because, within this process, nothing can bypass its refusals; the only
 * way around them is the test hook {@link #corrupt}.
 *
 * <p>Concurrency: every method is atomic (one monitor guards the map), so concurrent creates of a
 * name have exactly one winner. Byte arrays are copied in and out; callers never share them.
 */
public final class InMemoryBlobStore implements BlobStore {
  private static final Capabilities CAPABILITIES = new Capabilities(true, false, true, false);

  @SuppressWarnings("ArrayRecordComponent") // equals would be identity on the array: never compared
  private record Blob(byte[] data, Instant created, Retention retention) {}

  private final Clock clock;
  private final TreeMap<String, Blob> blobs = new TreeMap<>();

  public InMemoryBlobStore(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public synchronized void create(String name, byte[] data, Retention retention)
      throws IOException {
    BlobNames.check(name);
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(retention, "retention");
    if (blobs.containsKey(name)) {
      throw new BlobExistsException(name);
    }
    blobs.put(name, new Blob(data.clone(), clock.instant(), retention));
  }

  @Override
  public synchronized byte[] read(String name) throws IOException {
    return blob(name).data().clone();
  }

  @Override
  public synchronized byte[] read(String name, long offset, int length) throws IOException {
    byte[] data = blob(name).data();
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("negative offset or length: " + offset + ", " + length);
    }
    if (offset + length > data.length) {
      throw new EOFException(
          name + ": range " + offset + "+" + length + " goes past the end (" + data.length + ")");
    }
    return Arrays.copyOfRange(data, (int) offset, (int) offset + length);
  }

  /** A copy taken when opened: {@link #corrupt} changes the stored bytes in place. */
  @Override
  public synchronized InputStream openStream(String name) throws IOException {
    return new ByteArrayInputStream(blob(name).data().clone());
  }

  @Override
  public synchronized List<BlobInfo> list(String prefix) {
    BlobNames.checkPrefix(prefix);
    List<BlobInfo> found = new ArrayList<>();
    for (Map.Entry<String, Blob> e : blobs.tailMap(prefix, true).entrySet()) {
      if (!e.getKey().startsWith(prefix)) {
        break; // sorted: nothing later can match
      }
      found.add(new BlobInfo(e.getKey(), e.getValue().data().length, e.getValue().created()));
    }
    return found;
  }

  @Override
  public synchronized BlobInfo stat(String name) throws IOException {
    Blob blob = blob(name);
    return new BlobInfo(name, blob.data().length, blob.created());
  }

  @Override
  public synchronized void delete(String name) throws IOException {
    Blob blob = blob(name);
    if (blob.retention().retainedAt(clock.instant())) {
      throw new BlobRetainedException(name, blob.retention());
    }
    blobs.remove(name);
  }

  @Override
  public synchronized Retention retention(String name) throws IOException {
    return blob(name).retention();
  }

  @Override
  public synchronized Retention extendRetention(String name, Retention.Mode mode, Instant until)
      throws IOException {
    Blob blob = blob(name);
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(until, "until");
    Retention current = blob.retention();
    if (mode == Retention.Mode.NONE || !until.isAfter(current.until())) {
      return current;
    }
    Retention extended = Retention.of(current.isNone() ? mode : current.mode(), until);
    blobs.put(name, new Blob(blob.data(), blob.created(), extended));
    return extended;
  }

  @Override
  public Capabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public String describe() {
    return "memory";
  }

  /**
   * Test hook: flips every bit of one byte of {@code name}, bypassing write-once, as bit rot or an
   * attacker would.
   *
   * @throws IllegalArgumentException if there is no such blob or byte
   */
  public synchronized void corrupt(String name, int byteIndex) {
    Blob blob = blobs.get(name);
    if (blob == null) {
      throw new IllegalArgumentException("no blob to corrupt: " + name);
    }
    if (byteIndex < 0 || byteIndex >= blob.data().length) {
      throw new IllegalArgumentException(
          name + ": byte " + byteIndex + " outside " + blob.data().length + " bytes");
    }
    blob.data()[byteIndex] ^= (byte) 0xFF;
  }

  /** Test hook: every name in the store, sorted. */
  public synchronized List<String> names() {
    return List.copyOf(blobs.keySet());
  }

  private Blob blob(String name) throws BlobNotFoundException {
    Blob blob = blobs.get(BlobNames.check(name));
    if (blob == null) {
      throw new BlobNotFoundException(name);
    }
    return blob;
  }
}
