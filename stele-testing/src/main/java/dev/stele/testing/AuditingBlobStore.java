package dev.stele.testing;

import dev.stele.blob.BlobExistsException;
import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobStore;
import dev.stele.blob.BlobVersion;
import dev.stele.blob.ForwardingBlobStore;
import dev.stele.blob.Retention;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Records every call to a store, so that a test of a whole life cycle — backups, failures,
 * maintenance — can assert afterwards that the write-once rules held: no name written twice, no
 * delete outside maintenance, no delete of a blob still retained.
 *
 * <p>Each {@link Call} carries the phase label set with {@link #setPhase} when it started.
 * Retention is tracked only from what passes through this store (creates and extensions); blobs
 * that existed before it wrapped the delegate are not known to be retained.
 *
 * <p>A streamed read ({@link #openStream}) is recorded as a {@link BlobOperation#READ} when it is
 * opened; its outcome is the open's, not the reading's.
 *
 * <p>A point-in-time view ({@link #asOf}) of an audited store is audited too, into the same record
 * and under the same phase.
 *
 * <p>Concurrency: safe for many threads. Calls are numbered when they start; {@link #calls()}
 * returns them in that order. The phase is read once per call, so a phase change races with calls
 * already in flight.
 */
public final class AuditingBlobStore extends ForwardingBlobStore {

  /**
   * One call as the store saw it.
   *
   * @param sequence order in which calls started
   * @param name the blob name, or the prefix for {@code LIST}
   * @param retention asked for by {@code CREATE}; in force after a successful {@code
   *     EXTEND_RETENTION} (or asked for, if it failed); null for other calls
   * @param failure the exception the caller saw, or null if the call returned normally
   * @param time when the call started, by this store's clock
   */
  public record Call(
      long sequence,
      String phase,
      BlobOperation operation,
      String name,
      Retention retention,
      String thread,
      Class<? extends Throwable> failure,
      Instant time) {

    public boolean succeeded() {
      return failure == null;
    }

    /** "ok" or the simple name of the exception. */
    public String outcome() {
      return failure == null ? "ok" : failure.getSimpleName();
    }

    @Override
    public String toString() {
      return "#%d [%s] %s %s%s on %s at %s -> %s"
          .formatted(
              sequence,
              phase,
              operation,
              name,
              retention == null ? "" : " (" + retention + ")",
              thread,
              time,
              outcome());
    }
  }

  private interface IoCall<T> {
    T call() throws IOException;
  }

  /** What a store and its views record into. */
  private static final class Log {
    final Clock clock;
    final AtomicLong sequence = new AtomicLong();
    final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
    volatile String phase = "unspecified";

    Log(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
    }
  }

  private final Log log;

  /**
   * @param clock stamps each call, and is the clock retention is judged by in {@link
   *     #assertNoDeleteOfRetained()}: give it the clock the delegate uses
   */
  public AuditingBlobStore(BlobStore delegate, Clock clock) {
    this(delegate, new Log(clock));
  }

  private AuditingBlobStore(BlobStore delegate, Log log) {
    super(Objects.requireNonNull(delegate, "delegate"));
    this.log = log;
  }

  /** Labels the calls that start from now on, for example "backup" or "maintenance". */
  public void setPhase(String phase) {
    log.phase = Objects.requireNonNull(phase, "phase");
  }

  public String phase() {
    return log.phase;
  }

  /** Every call so far, in the order they started. */
  public List<Call> calls() {
    List<Call> sorted = new ArrayList<>(log.calls);
    sorted.sort(Comparator.comparingLong(Call::sequence));
    return sorted;
  }

  /**
   * Fails if any name had two write attempts: two creates that succeeded, or any create refused
   * with {@link BlobExistsException} (an attempt to write a name that was already written — the
   * blind retry the design forbids).
   */
  public void assertNoNameWrittenTwice() {
    Map<String, List<Call>> writes = new LinkedHashMap<>();
    for (Call call : calls()) {
      if (call.operation() == BlobOperation.CREATE
          && (call.succeeded() || BlobExistsException.class.isAssignableFrom(call.failure()))) {
        writes.computeIfAbsent(call.name(), n -> new ArrayList<>()).add(call);
      }
    }
    List<Call> offending = new ArrayList<>();
    for (List<Call> attempts : writes.values()) {
      if (attempts.size() > 1 || !attempts.get(0).succeeded()) {
        offending.addAll(attempts);
      }
    }
    fail("names written more than once", offending);
  }

  /** Fails if any delete was attempted outside {@code phase}. */
  public void assertDeletesOnlyIn(String phase) {
    fail(
        "deletes outside phase '" + phase + "'",
        calls().stream()
            .filter(c -> c.operation() == BlobOperation.DELETE && !c.phase().equals(phase))
            .toList());
  }

  /**
   * Fails if a delete was attempted — whether or not the store refused it — on a blob whose
   * retention, as created or extended through this store, was still in force when the delete
   * started. A create or extension whose outcome is unknown (it failed with anything but {@link
   * BlobExistsException}) is assumed to have landed: the answer may have been lost.
   */
  public void assertNoDeleteOfRetained() {
    Map<String, Retention> inForce = new HashMap<>();
    List<Call> offending = new ArrayList<>();
    for (Call call : calls()) {
      switch (call.operation()) {
        case CREATE, EXTEND_RETENTION -> {
          if (call.succeeded() || !BlobExistsException.class.isAssignableFrom(call.failure())) {
            inForce.merge(call.name(), call.retention(), AuditingBlobStore::longer);
          }
        }
        case DELETE -> {
          Retention retention = inForce.getOrDefault(call.name(), Retention.NONE);
          if (retention.retainedAt(call.time())) {
            offending.add(call);
          } else if (call.succeeded()) {
            inForce.remove(call.name());
          }
        }
        default -> {}
      }
    }
    fail("deletes of blobs still retained", offending);
  }

  private static Retention longer(Retention a, Retention b) {
    if (a.isNone() || b.isNone()) {
      return a.isNone() ? b : a;
    }
    Retention.Mode mode = a.mode().compareTo(b.mode()) >= 0 ? a.mode() : b.mode();
    return Retention.of(mode, a.until().isAfter(b.until()) ? a.until() : b.until());
  }

  private static void fail(String what, List<Call> offending) {
    if (!offending.isEmpty()) {
      throw new AssertionError(
          what
              + " ("
              + offending.size()
              + "):\n  "
              + offending.stream().map(Call::toString).collect(Collectors.joining("\n  ")));
    }
  }

  private <T> T audit(BlobOperation operation, String name, Retention retention, IoCall<T> call)
      throws IOException {
    long number = log.sequence.incrementAndGet();
    Instant time = log.clock.instant();
    String label = log.phase;
    String thread = Thread.currentThread().getName();
    try {
      T result = call.call();
      Retention recorded =
          operation == BlobOperation.EXTEND_RETENTION && result instanceof Retention inForce
              ? inForce
              : retention;
      log.calls.add(new Call(number, label, operation, name, recorded, thread, null, time));
      return result;
    } catch (IOException | RuntimeException | Error e) {
      log.calls.add(
          new Call(number, label, operation, name, retention, thread, e.getClass(), time));
      throw e;
    }
  }

  @Override
  public void create(String name, byte[] data, Retention retention) throws IOException {
    audit(
        BlobOperation.CREATE,
        name,
        retention,
        () -> {
          delegate().create(name, data, retention);
          return null;
        });
  }

  @Override
  public byte[] read(String name) throws IOException {
    return audit(BlobOperation.READ, name, null, () -> delegate().read(name));
  }

  @Override
  public byte[] read(String name, long offset, int length) throws IOException {
    return audit(BlobOperation.READ, name, null, () -> delegate().read(name, offset, length));
  }

  @Override
  public InputStream openStream(String name) throws IOException {
    return audit(BlobOperation.READ, name, null, () -> delegate().openStream(name));
  }

  @Override
  public List<BlobInfo> list(String prefix) throws IOException {
    return audit(BlobOperation.LIST, prefix, null, () -> delegate().list(prefix));
  }

  @Override
  public BlobInfo stat(String name) throws IOException {
    return audit(BlobOperation.STAT, name, null, () -> delegate().stat(name));
  }

  @Override
  public void delete(String name) throws IOException {
    audit(
        BlobOperation.DELETE,
        name,
        null,
        () -> {
          delegate().delete(name);
          return null;
        });
  }

  @Override
  public Retention retention(String name) throws IOException {
    return audit(BlobOperation.RETENTION, name, null, () -> delegate().retention(name));
  }

  @Override
  public Retention extendRetention(String name, Retention.Mode mode, Instant until)
      throws IOException {
    return audit(
        BlobOperation.EXTEND_RETENTION,
        name,
        Retention.of(mode, until),
        () -> delegate().extendRetention(name, mode, until));
  }

  @Override
  public BlobStore asOf(Instant instant) {
    return new AuditingBlobStore(delegate().asOf(instant), log);
  }

  @Override
  public List<BlobVersion> versions(String name) throws IOException {
    return audit(BlobOperation.VERSIONS, name, null, () -> delegate().versions(name));
  }

  @Override
  public byte[] readVersion(String name, String versionId) throws IOException {
    return audit(BlobOperation.READ, name, null, () -> delegate().readVersion(name, versionId));
  }

  @Override
  public byte[] readVersion(String name, String versionId, long offset, int length)
      throws IOException {
    return audit(
        BlobOperation.READ,
        name,
        null,
        () -> delegate().readVersion(name, versionId, offset, length));
  }

  @Override
  public String describe() {
    return "audited " + delegate().describe();
  }
}
