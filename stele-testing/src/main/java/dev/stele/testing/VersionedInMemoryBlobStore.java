package dev.stele.testing;

import dev.stele.blob.BlobExistsException;
import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNames;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobRetainedException;
import dev.stele.blob.BlobStore;
import dev.stele.blob.BlobVersion;
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
 * A blob store in memory with the versioning semantics of an S3 bucket with object lock, for
 * point-in-time tests.
 *
 * <p>Through the {@link BlobStore} contract it behaves like {@link InMemoryBlobStore}: {@link
 * #create} refuses a name whose current version exists. Every name keeps a list of versions; the
 * newest is the current one. Retention belongs to each version, and {@link #retention} and {@link
 * #extendRetention} concern the current one, as S3's do without a version id. {@link #delete}
 * removes every version of a name, but refuses (and removes nothing) if any of them is still
 * retained.
 *
 * <p>The adversary hooks, {@link #overwrite}, {@link #deleteMarker} and {@link #deleteVersion},
 * bypass the contract the way someone holding the same credentials could on S3: a PUT to an
 * existing key adds a version, a DELETE without a version id adds a delete marker, and a DELETE of
 * a version is refused while that version is retained.
 *
 * <p>Concurrency: every method is atomic (one monitor guards the map).
 */
public final class VersionedInMemoryBlobStore implements BlobStore {
  private static final Capabilities CAPABILITIES = new Capabilities(true, true, true, true);

  @SuppressWarnings("ArrayRecordComponent") // equals would be identity on the array: never compared
  private record Version(
      String id, byte[] data, Instant created, Retention retention, boolean marker) {
    BlobVersion describe() {
      return new BlobVersion(id, created, marker ? 0 : data.length, marker);
    }
  }

  private final Clock clock;

  /** Versions of each name, oldest first. */
  private final TreeMap<String, List<Version>> names = new TreeMap<>();

  private long nextVersion;

  public VersionedInMemoryBlobStore(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public synchronized void create(String name, byte[] data, Retention retention)
      throws IOException {
    BlobNames.check(name);
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(retention, "retention");
    if (current(name, null) != null) {
      throw new BlobExistsException(name);
    }
    add(name, data.clone(), retention, false);
  }

  @Override
  public byte[] read(String name) throws IOException {
    return view(null).read(name);
  }

  @Override
  public byte[] read(String name, long offset, int length) throws IOException {
    return view(null).read(name, offset, length);
  }

  @Override
  public InputStream openStream(String name) throws IOException {
    return view(null).openStream(name);
  }

  @Override
  public List<BlobInfo> list(String prefix) throws IOException {
    return view(null).list(prefix);
  }

  @Override
  public BlobInfo stat(String name) throws IOException {
    return view(null).stat(name);
  }

  @Override
  public synchronized void delete(String name) throws IOException {
    existing(name, null);
    Instant now = clock.instant();
    for (Version v : names.get(name)) {
      if (v.retention().retainedAt(now)) {
        throw new BlobRetainedException(name, v.retention());
      }
    }
    names.remove(name);
  }

  @Override
  public Retention retention(String name) throws IOException {
    return view(null).retention(name);
  }

  @Override
  public synchronized Retention extendRetention(String name, Retention.Mode mode, Instant until)
      throws IOException {
    Version v = existing(name, null);
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(until, "until");
    Retention current = v.retention();
    if (mode == Retention.Mode.NONE || !until.isAfter(current.until())) {
      return current;
    }
    Retention extended = Retention.of(current.isNone() ? mode : current.mode(), until);
    List<Version> versions = names.get(name);
    versions.set(versions.size() - 1, new Version(v.id(), v.data(), v.created(), extended, false));
    return extended;
  }

  @Override
  public BlobStore asOf(Instant instant) {
    return view(Objects.requireNonNull(instant, "instant"));
  }

  @Override
  public List<BlobVersion> versions(String name) throws IOException {
    return view(null).versions(name);
  }

  @Override
  public byte[] readVersion(String name, String versionId) throws IOException {
    return view(null).readVersion(name, versionId);
  }

  @Override
  public Capabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public String describe() {
    return "versioned memory";
  }

  /**
   * Adversary: writes a new current version of {@code name} holding {@code data} (an S3 PUT to an
   * existing key). The earlier versions stay.
   *
   * @return the new version's id
   */
  public synchronized String overwrite(String name, byte[] data) {
    BlobNames.check(name);
    return add(name, data.clone(), Retention.NONE, false);
  }

  /**
   * Adversary: hides {@code name} behind a delete marker (an S3 DELETE without a version id).
   *
   * @return the marker's version id
   */
  public synchronized String deleteMarker(String name) {
    BlobNames.check(name);
    return add(name, new byte[0], Retention.NONE, true);
  }

  /**
   * Adversary: deletes one version for good (an S3 DELETE with a version id).
   *
   * @throws BlobRetainedException if that version is still retained; nothing is deleted
   * @throws BlobNotFoundException if there is no such version
   */
  public synchronized void deleteVersion(String name, String versionId) throws IOException {
    List<Version> versions = names.get(BlobNames.check(name));
    Version v = versions == null ? null : find(versions, versionId);
    if (v == null) {
      throw new BlobNotFoundException(name + " version " + versionId);
    }
    if (v.retention().retainedAt(clock.instant())) {
      throw new BlobRetainedException(name, v.retention());
    }
    versions.remove(v);
    if (versions.isEmpty()) {
      names.remove(name);
    }
  }

  /** Test hook: every name with a current version, sorted. */
  public synchronized List<String> names() {
    List<String> present = new ArrayList<>();
    for (String name : names.keySet()) {
      if (current(name, null) != null) {
        present.add(name);
      }
    }
    return present;
  }

  private String add(String name, byte[] data, Retention retention, boolean marker) {
    String id = String.format("v%08d", ++nextVersion);
    names
        .computeIfAbsent(name, n -> new ArrayList<>())
        .add(new Version(id, data, clock.instant(), retention, marker));
    return id;
  }

  private static Version find(List<Version> versions, String versionId) {
    for (Version v : versions) {
      if (v.id().equals(versionId)) {
        return v;
      }
    }
    return null;
  }

  /** The newest version not newer than {@code asOf} (any, if null), unless it is a marker. */
  private Version current(String name, Instant asOf) {
    List<Version> versions = names.get(name);
    if (versions == null) {
      return null;
    }
    for (int i = versions.size() - 1; i >= 0; i--) {
      Version v = versions.get(i);
      if (asOf == null || !v.created().isAfter(asOf)) {
        return v.marker() ? null : v;
      }
    }
    return null;
  }

  private Version existing(String name, Instant asOf) throws BlobNotFoundException {
    Version v = current(BlobNames.check(name), asOf);
    if (v == null) {
      throw new BlobNotFoundException(name);
    }
    return v;
  }

  private View view(Instant asOf) {
    return new View(asOf);
  }

  /** The store as it was at {@code asOf}, or as it is when that is null. */
  private final class View implements BlobStore {
    private final Instant asOf;

    View(Instant asOf) {
      this.asOf = asOf;
    }

    @Override
    public void create(String name, byte[] data, Retention retention) {
      throw readOnly();
    }

    @Override
    public byte[] read(String name) throws IOException {
      synchronized (VersionedInMemoryBlobStore.this) {
        return existing(name, asOf).data().clone();
      }
    }

    @Override
    public byte[] read(String name, long offset, int length) throws IOException {
      byte[] data;
      synchronized (VersionedInMemoryBlobStore.this) {
        data = existing(name, asOf).data();
      }
      return slice(name, data, offset, length);
    }

    @Override
    public InputStream openStream(String name) throws IOException {
      synchronized (VersionedInMemoryBlobStore.this) {
        // A version's bytes are never changed in place, so the stream may share them.
        return new ByteArrayInputStream(existing(name, asOf).data());
      }
    }

    @Override
    public List<BlobInfo> list(String prefix) {
      BlobNames.checkPrefix(prefix);
      List<BlobInfo> found = new ArrayList<>();
      synchronized (VersionedInMemoryBlobStore.this) {
        for (Map.Entry<String, List<Version>> e : names.tailMap(prefix, true).entrySet()) {
          if (!e.getKey().startsWith(prefix)) {
            break;
          }
          Version v = current(e.getKey(), asOf);
          if (v != null) {
            found.add(new BlobInfo(e.getKey(), v.data().length, v.created()));
          }
        }
      }
      return found;
    }

    @Override
    public BlobInfo stat(String name) throws IOException {
      synchronized (VersionedInMemoryBlobStore.this) {
        Version v = existing(name, asOf);
        return new BlobInfo(name, v.data().length, v.created());
      }
    }

    @Override
    public void delete(String name) {
      throw readOnly();
    }

    @Override
    public Retention retention(String name) throws IOException {
      synchronized (VersionedInMemoryBlobStore.this) {
        return existing(name, asOf).retention();
      }
    }

    @Override
    public Retention extendRetention(String name, Retention.Mode mode, Instant until) {
      throw readOnly();
    }

    @Override
    public BlobStore asOf(Instant instant) {
      Objects.requireNonNull(instant, "instant");
      return view(asOf == null || instant.isBefore(asOf) ? instant : asOf);
    }

    @Override
    public List<BlobVersion> versions(String name) {
      BlobNames.check(name);
      List<BlobVersion> found = new ArrayList<>();
      synchronized (VersionedInMemoryBlobStore.this) {
        List<Version> versions = names.getOrDefault(name, List.of());
        for (int i = versions.size() - 1; i >= 0; i--) {
          Version v = versions.get(i);
          if (asOf == null || !v.created().isAfter(asOf)) {
            found.add(v.describe());
          }
        }
      }
      return found;
    }

    @Override
    public byte[] readVersion(String name, String versionId) throws IOException {
      BlobNames.check(name);
      synchronized (VersionedInMemoryBlobStore.this) {
        List<Version> versions = names.get(name);
        Version v = versions == null ? null : find(versions, versionId);
        if (v == null || v.marker() || (asOf != null && v.created().isAfter(asOf))) {
          throw new BlobNotFoundException(name + " version " + versionId);
        }
        return v.data().clone();
      }
    }

    @Override
    public Capabilities capabilities() {
      return CAPABILITIES;
    }

    @Override
    public String describe() {
      return asOf == null ? "versioned memory" : "versioned memory as of " + asOf;
    }

    private UnsupportedOperationException readOnly() {
      return new UnsupportedOperationException(
          "a point-in-time view is read-only (" + describe() + ")");
    }
  }

  private static byte[] slice(String name, byte[] data, long offset, int length)
      throws EOFException {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("negative offset or length: " + offset + ", " + length);
    }
    if (offset + length > data.length) {
      throw new EOFException(
          name + ": range " + offset + "+" + length + " goes past the end (" + data.length + ")");
    }
    return Arrays.copyOfRange(data, (int) offset, (int) offset + length);
  }
}
