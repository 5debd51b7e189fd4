package dev.stele.s3;

import dev.stele.blob.BlobExistsException;
import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNames;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobRetainedException;
import dev.stele.blob.BlobStore;
import dev.stele.blob.BlobVersion;
import dev.stele.blob.Capabilities;
import dev.stele.blob.Retention;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A blob store in an S3 bucket: blob {@code name} is the object {@code prefix/name}.
 *
 * <p>What it relies on, and what it does not:
 *
 * <ul>
 *   <li><b>Create never replaces.</b> It looks first (HEAD) and sends {@code If-None-Match: *}, but
 *       relies on neither alone: Ceph RGW ignores the header on versioned buckets. On a versioned
 *       bucket, after its PUT it lists the key's versions; if an older version was there first, it
 *       lost a race, removes its own version and reports {@link BlobExistsException}. See {@link
 *       S3Creates} for the residual race, and why Stele's names make it moot.
 *   <li><b>Retention is proven, not assumed.</b> It is sent with the PUT (or set right after a
 *       multipart upload completes) and then read back; a server that dropped it fails the create
 *       loudly.
 *   <li><b>Delete removes versions, not keys.</b> A DELETE without a version id would only add a
 *       delete marker, which looks like success and frees nothing. Every version of the key is
 *       deleted by id; a version the server refuses (still retained) is a {@link
 *       BlobRetainedException}. The GOVERNANCE bypass header is never sent.
 *   <li><b>No blind retries of writes.</b> See {@link S3Http} and {@link S3Retries}.
 * </ul>
 *
 * <p>Concurrency: safe for many threads; requests run on the caller's thread. Several processes may
 * share a bucket (names are unique).
 */
public final class S3BlobStore implements BlobStore {
  static final String MD5_METADATA = "stele-md5";

  private final S3Api api;
  private final S3Location location;
  private final BucketConfig config;
  private final S3Retries retries;
  private final S3Creates creates;
  private final KnownRetention known = new KnownRetention(Clock.systemUTC());
  private final ConcurrentHashMap<String, Boolean> listedDirectories = new ConcurrentHashMap<>();
  private volatile @Nullable RetentionFile retentionFile;

  private S3BlobStore(
      S3Api api, S3Location location, BucketConfig config, S3Options options, S3Retries retries) {
    this.api = api;
    this.location = location;
    this.config = config;
    this.retries = retries;
    this.creates = new S3Creates(api, location, config, options, retries, known);
  }

  /** A store at {@code location} with default options; reads the bucket's configuration. */
  public static S3BlobStore open(S3Location location) throws IOException {
    return open(location, S3Options.defaults());
  }

  /**
   * A store at {@code location}. Reads the bucket's configuration (versioning, object lock, default
   * rule) once, now.
   *
   * @throws IOException if the bucket cannot be reached or does not exist
   */
  static S3BlobStore open(S3Location location, S3Options options) throws IOException {
    return open(location, options, List.of());
  }

  /** As {@link #open(S3Location, S3Options)}, with taps on its requests (tests inject faults). */
  static S3BlobStore open(S3Location location, S3Options options, List<S3Http.Tap> taps)
      throws IOException {
    S3Http http;
    try {
      http =
          S3Http.connect(
              location, S3Signing.region(location), S3Signing.credentials(location), taps);
    } catch (IllegalArgumentException e) {
      throw new IOException(location + ": cannot set up the S3 client: " + e.getMessage(), e);
    }
    S3Retries retries = S3Retries.of(options);
    S3Api api = new S3Api(http, retries);
    BucketConfig config = BucketInspector.inspect(api, location.bucket());
    return new S3BlobStore(api, location, config, options, retries);
  }

  /** The bucket's configuration as read when this store was opened. */
  public BucketConfig bucketConfig() {
    return config;
  }

  public S3Location location() {
    return location;
  }

  /**
   * Keeps what this store reads back of retention between processes, in a file under {@code
   * directory} named after this location and authenticated with {@code key} ({@link
   * RetentionFile}): loads it now, trusted by the same rule as what this process reads, and saves
   * it at {@link #close}. A command line calls it; a long-lived process has no need.
   */
  public void keepRetentionIn(Path directory, byte[] key) {
    String where = location.toString();
    String file =
        "s3-retention-"
            + HexFormat.of()
                .formatHex(Hashes.of("SHA-256", where.getBytes(StandardCharsets.UTF_8)), 0, 8);
    RetentionFile kept = new RetentionFile(directory.resolve(file), key, where);
    known.adopt(kept.load());
    retentionFile = kept;
  }

  @Override
  public void create(String name, byte[] data, Retention retention) throws IOException {
    BlobNames.check(name);
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(retention, "retention");
    creates.create(name, data, retention);
  }

  /** Sends {@code file} as it is read, never holding it whole (unless it goes up in parts). */
  @Override
  public void create(String name, Path file, Retention retention) throws IOException {
    BlobNames.check(name);
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(retention, "retention");
    creates.create(name, file, retention);
  }

  /**
   * The key's current version, in one GET. On a versioned bucket that may be an overwrite by
   * someone else; the repository verifies every blob and falls back to older versions itself
   * ({@code VersionedReads}), so everyday reads do not pay a version listing each.
   */
  @Override
  public byte[] read(String name) throws IOException {
    String key = location.key(BlobNames.check(name));
    try {
      return api.getBytes(key, null);
    } catch (S3Failure e) {
      throw S3Errors.blob(name, e);
    }
  }

  @Override
  public byte[] read(String name, long offset, int length) throws IOException {
    return read(name, offset, length, null);
  }

  @Override
  public byte[] read(String name, long offset, int length, byte @Nullable [] into)
      throws IOException {
    String key = location.key(BlobNames.check(name));
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("negative offset or length: " + offset + ", " + length);
    }
    if (length == 0) {
      long size = stat(name).size();
      if (offset > size) {
        throw new EOFException(name + ": offset " + offset + " is past the end (" + size + ")");
      }
      return new byte[0];
    }
    return readRange(name, key, null, offset, length, into, e -> S3Errors.blob(name, e));
  }

  /** One GET, its body read as it arrives; see {@link S3BlobStream} for a body that breaks off. */
  @Override
  public InputStream openStream(String name) throws IOException {
    String key = location.key(BlobNames.check(name));
    return S3BlobStream.open(api, retries, key, null, name, e -> S3Errors.blob(name, e));
  }

  /** As {@link #openStream}, of one version of {@code name}, for a point-in-time view. */
  InputStream openVersionStream(String name, String versionId) throws IOException {
    String key = location.key(BlobNames.check(name));
    Objects.requireNonNull(versionId, "versionId");
    return S3BlobStream.open(
        api,
        retries,
        key,
        versionId,
        name + " version " + versionId,
        e -> versionFailure(name, versionId, e));
  }

  /**
   * Reads {@code length} bytes at {@code offset} of {@code key} (its {@code versionId} if not null;
   * {@code what} in messages), into {@code into} if it is that long, else into a new array: the
   * body is read straight into it. A range past the end, or an answer of another length, is an
   * {@link EOFException}; any other failure is what {@code failure} makes of it.
   */
  private byte[] readRange(
      String what,
      String key,
      @Nullable String versionId,
      long offset,
      int length,
      byte @Nullable [] into,
      Function<S3Failure, IOException> failure)
      throws IOException {
    byte[] target = into != null && into.length >= length ? into : new byte[length];
    int got;
    try {
      got = api.getRange(key, versionId, offset, length, target);
    } catch (S3Failure e) {
      if (e.status() == 416) {
        throw new EOFException(what + ": offset " + offset + " is past the end");
      }
      throw failure.apply(e);
    }
    if (got != length) {
      throw new EOFException(
          what
              + ": asked for "
              + length
              + " bytes at "
              + offset
              + ", got "
              + (got > length ? "more" : got));
    }
    return target;
  }

  @Override
  public List<BlobInfo> list(String prefix) throws IOException {
    BlobNames.checkPrefix(prefix);
    String keyPrefix = location.keyPrefix();
    List<BlobInfo> result = new ArrayList<>();
    try {
      for (S3Api.Listed object : api.list(keyPrefix + prefix)) {
        String name = object.key().substring(keyPrefix.length());
        if (valid(name)) {
          result.add(new BlobInfo(name, object.size(), seconds(object.lastModified())));
        }
      }
    } catch (S3Failure e) {
      throw S3Errors.io(location + " listing " + prefix, e);
    }
    // S3 lists in UTF-8 byte order, which is String order for the ASCII names Stele uses.
    result.sort(Comparator.comparing(BlobInfo::name));
    return result;
  }

  @Override
  public BlobInfo stat(String name) throws IOException {
    S3Api.Head head = creates.head(name);
    if (head == null) {
      throw new BlobNotFoundException(name);
    }
    return new BlobInfo(name, head.length(), seconds(head.lastModified()));
  }

  @Override
  public void delete(String name) throws IOException {
    String key = location.key(BlobNames.check(name));
    known.forget(name);
    // Newest first: should a version be retained, the ones already gone are the newer ones, and
    // the key keeps showing the (identical, since names are unique) older content. Markers last.
    List<BlobVersion> all = versions(name);
    boolean any = false;
    for (BlobVersion version : all) {
      if (!version.deleteMarker()) {
        deleteVersion(name, key, version.versionId());
        any = true;
      }
    }
    for (BlobVersion marker : all) {
      if (marker.deleteMarker()) {
        deleteVersion(name, key, marker.versionId());
      }
    }
    if (!any) {
      throw new BlobNotFoundException(name);
    }
  }

  private void deleteVersion(String name, String key, String versionId) throws IOException {
    try {
      api.delete(key, versionId);
    } catch (S3Failure e) {
      if (e.status() == 403) {
        String retention;
        try {
          retention = creates.retentionOf(name, key, versionId).toString();
        } catch (IOException | RuntimeException ignored) {
          retention = "retention unknown";
        }
        BlobRetainedException retained =
            new BlobRetainedException(
                name, "version " + versionId + " refused with 403 AccessDenied, " + retention);
        retained.initCause(e);
        throw retained;
      }
      if (!S3Errors.notFound(e)) {
        throw S3Errors.io(name + ": deleting version " + versionId, e);
      }
    }
  }

  /**
   * The retention of the version Stele created. On a versioned bucket that is the key's <em>oldest
   * </em> version: names are unique by construction, so any later version is someone else's
   * overwrite, and what the repository needs retained is the original. (Reads still go to the
   * current version, see {@link #read(String)}.) A retention read back recently and far enough
   * ahead is answered without a request ({@link KnownRetention}).
   */
  @Override
  public Retention retention(String name) throws IOException {
    String key = location.key(BlobNames.check(name));
    Retention trusted = known.trusted(name);
    if (trusted != null) {
      return trusted;
    }
    String versionId = config.versioned() ? originalVersion(name) : null;
    Retention read = creates.retentionOf(name, key, versionId);
    known.remember(name, versionId, read);
    return read;
  }

  /**
   * The id of the oldest version of {@code name} that is not a delete marker: the one Stele's
   * create made, since a create never replaces and a name is never reused.
   *
   * @throws BlobNotFoundException if the key has no version at all
   */
  String originalVersion(String name) throws IOException {
    String cached = known.versionId(name);
    if (cached == null) {
      learnVersionsUnder(name);
      cached = known.versionId(name);
    }
    if (cached != null) {
      return cached;
    }
    List<BlobVersion> all = versions(name);
    for (int i = all.size() - 1; i >= 0; i--) {
      if (!all.get(i).deleteMarker()) {
        known.rememberVersion(name, all.get(i).versionId());
        return all.get(i).versionId();
      }
    }
    throw new BlobNotFoundException(name);
  }

  /**
   * On the first miss under a directory ({@code packs/} holds a repository's packs), one
   * ListObjectVersions page of it. If that page is all of it, the original version of every key
   * with a single version is known from then on, so checking the retention of many reused packs
   * costs one listing rather than one each. A key with several versions (someone's overwrite) is
   * left to the per-key listing; a directory bigger than a page costs that one page, once.
   */
  private void learnVersionsUnder(String name) {
    int slash = name.lastIndexOf('/');
    if (slash >= 0) {
      listedDirectories.computeIfAbsent(
          name.substring(0, slash + 1),
          directory -> {
            listOnePage(directory);
            return true;
          });
    }
  }

  private void listOnePage(String directory) {
    String keyPrefix = location.keyPrefix();
    S3Api.VersionPage page;
    try {
      page = api.versionPage(keyPrefix + directory, 1000);
    } catch (S3Failure | IOException e) {
      return; // only a shortcut: the per-key listing follows
    }
    if (page.truncated()) {
      return;
    }
    List<S3Api.Version> versions =
        page.versions().stream().filter(v -> !v.marker()).collect(Collectors.toList());
    Map<String, Long> versionsOfKey =
        versions.stream().collect(Collectors.groupingBy(S3Api.Version::key, Collectors.counting()));
    for (S3Api.Version v : versions) {
      if (versionsOfKey.getOrDefault(v.key(), 0L) == 1) {
        known.rememberVersion(v.key().substring(keyPrefix.length()), v.versionId());
      }
    }
  }

  @Override
  public Retention extendRetention(String name, Retention.Mode mode, Instant until)
      throws IOException {
    String key = location.key(BlobNames.check(name));
    Objects.requireNonNull(mode, "mode");
    Instant wanted = S3Creates.ceilSeconds(until);
    Retention trusted = known.trusted(name);
    if (trusted != null && !wanted.isAfter(trusted.until())) {
      return trusted;
    }
    String versionId;
    if (config.versioned()) {
      // The original version, not the current one: an attacker's overwrite must not divert the
      // extension to its own version and let the original's retention run out.
      versionId = originalVersion(name);
    } else {
      S3Api.Head head = creates.head(name);
      if (head == null) {
        throw new BlobNotFoundException(name);
      }
      versionId = head.versionId();
    }
    // What a check read moments ago (ensureRetained reads, then extends) is a lower bound of
    // what is in force; should the server hold more, the extension below is refused as a
    // shortening and the fresh read after it decides.
    Retention recent = known.recent(name);
    Retention current = recent != null ? recent : creates.retentionOf(name, key, versionId);
    if (!current.isNone() && !wanted.isAfter(current.until())) {
      return current;
    }
    Retention.Mode keep = current.isNone() ? mode : current.mode();
    if (keep == Retention.Mode.NONE) {
      return current;
    }
    if (!config.objectLock()) {
      throw new IOException(
          name + ": bucket " + location.bucket() + " has no object lock; cannot retain it");
    }
    Retention extended = Retention.of(keep, wanted);
    try {
      creates.putRetention(name, key, versionId, extended);
    } catch (IOException refused) {
      known.forget(name);
      if (recent == null) {
        throw refused;
      }
      // Perhaps extended meanwhile beyond what we asked for: then the server holds enough.
      Retention now = creates.retentionOf(name, key, versionId);
      if (!now.lastsUntil(wanted) || now.mode().compareTo(keep) < 0) {
        throw refused;
      }
      known.remember(name, versionId, now);
      return now;
    }
    Retention verified = creates.verifyRetention(name, key, versionId, extended);
    known.remember(name, versionId, verified);
    return verified;
  }

  @Override
  public BlobStore asOf(Instant instant) {
    if (!config.versioned()) {
      throw new UnsupportedOperationException(
          "point-in-time reads need a versioned store; bucket "
              + location.bucket()
              + " has versioning "
              + config.versioning());
    }
    return new S3View(this, Objects.requireNonNull(instant, "instant"));
  }

  @Override
  public List<BlobVersion> versions(String name) throws IOException {
    String key = location.key(BlobNames.check(name));
    List<BlobVersion> result = new ArrayList<>();
    // Versions and delete markers come in separate lists; merged newest first by time, and for
    // equal times the one the server marks latest first.
    record Entry(BlobVersion version, boolean latest) {}
    List<Entry> entries = new ArrayList<>();
    try {
      for (S3Api.Version v : api.versionsOf(key)) {
        entries.add(new Entry(blobVersion(v), v.latest()));
      }
    } catch (S3Failure e) {
      throw S3Errors.io(name + ": listing versions", e);
    }
    entries.sort(
        Comparator.comparing((Entry e) -> e.version().created())
            .reversed()
            .thenComparing(e -> !e.latest()));
    entries.forEach(e -> result.add(e.version()));
    return result;
  }

  @Override
  public byte[] readVersion(String name, String versionId) throws IOException {
    String key = location.key(BlobNames.check(name));
    Objects.requireNonNull(versionId, "versionId");
    try {
      return api.getBytes(key, versionId);
    } catch (S3Failure e) {
      throw versionFailure(name, versionId, e);
    }
  }

  @Override
  public byte[] readVersion(String name, String versionId, long offset, int length)
      throws IOException {
    String key = location.key(BlobNames.check(name));
    Objects.requireNonNull(versionId, "versionId");
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("negative offset or length: " + offset + ", " + length);
    }
    if (length == 0) {
      long size;
      try {
        size = api.head(key, versionId).length();
      } catch (S3Failure e) {
        throw versionFailure(name, versionId, e);
      }
      if (offset > size) {
        throw new EOFException(name + " version " + versionId + ": offset " + offset + " past end");
      }
      return new byte[0];
    }
    return readRange(
        name + " version " + versionId,
        key,
        versionId,
        offset,
        length,
        null,
        e -> versionFailure(name, versionId, e));
  }

  /** A delete marker answers 405, an unknown version 404 or 400: all "no such version". */
  private static IOException versionFailure(String name, String versionId, S3Failure e) {
    int status = e.status();
    if (status == 404 || status == 405 || status == 400) {
      BlobNotFoundException missing = new BlobNotFoundException(name + " version " + versionId);
      missing.initCause(e);
      return missing;
    }
    return S3Errors.io(name + " version " + versionId, e);
  }

  /** The retention of one version of {@code name}. */
  Retention retentionOfVersion(String name, String versionId) throws IOException {
    return creates.retentionOf(name, location.key(BlobNames.check(name)), versionId);
  }

  /** Every key under {@code prefix} with its versions and markers, for a view's listing. */
  List<BlobInfo> listAsOf(String prefix, Instant instant) throws IOException {
    BlobNames.checkPrefix(prefix);
    String keyPrefix = location.keyPrefix();
    java.util.Map<String, BlobVersion> newest = new java.util.TreeMap<>();
    try {
      for (S3Api.Version v : api.versions(keyPrefix + prefix)) {
        keep(newest, v.key(), blobVersion(v), instant);
      }
    } catch (S3Failure e) {
      throw S3Errors.io(location + " listing versions of " + prefix, e);
    }
    List<BlobInfo> result = new ArrayList<>();
    newest.forEach(
        (key, version) -> {
          String name = key.substring(keyPrefix.length());
          if (!version.deleteMarker() && valid(name)) {
            result.add(new BlobInfo(name, version.size(), seconds(version.created())));
          }
        });
    result.sort(Comparator.comparing(BlobInfo::name));
    return result;
  }

  // On equal times a delete marker wins: a marker written in the same millisecond as a version
  // was, in every case we know of, written after it.
  private static void keep(
      java.util.Map<String, BlobVersion> newest, String key, BlobVersion v, Instant instant) {
    if (v.created().isAfter(instant)) {
      return;
    }
    newest.merge(
        key,
        v,
        (a, b) -> {
          int c = a.created().compareTo(b.created());
          if (c != 0) {
            return c > 0 ? a : b;
          }
          return a.deleteMarker() ? a : b;
        });
  }

  @Override
  public Capabilities capabilities() {
    return config.capabilities();
  }

  @Override
  public String describe() {
    return location.toString();
  }

  @Override
  public void close() {
    RetentionFile kept = retentionFile;
    if (kept != null) {
      kept.save(known.current());
    }
  }

  private static BlobVersion blobVersion(S3Api.Version v) {
    return new BlobVersion(v.versionId(), v.lastModified(), v.marker() ? 0 : v.size(), v.marker());
  }

  static Instant seconds(Instant instant) {
    return instant == null ? Instant.EPOCH : instant.truncatedTo(ChronoUnit.SECONDS);
  }

  private static boolean valid(String name) {
    try {
      BlobNames.check(name);
      return true;
    } catch (IllegalArgumentException e) {
      return false; // a key someone else put under our prefix, such as a "folder/" marker
    }
  }
}
