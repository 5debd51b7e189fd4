package dev.stele.testing;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobStore;
import dev.stele.blob.Capabilities;
import dev.stele.blob.Retention;
import java.io.IOException;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

/**
 * Makes a store fail the way storage and networks do, reproducibly from a seed.
 *
 * <p>Two kinds of fault, each with a probability per {@link BlobOperation}:
 *
 * <ul>
 *   <li><b>before</b>: the call throws without reaching the delegate; nothing happened.
 *   <li><b>after</b>: the call reaches the delegate and succeeds there, then throws: the answer was
 *       lost, and the caller cannot tell this from the first kind. Callers that retry a create
 *       blindly break write-once here.
 * </ul>
 *
 * <p>And a crash: {@link #crashAfterMutations} kills the simulated process at its Nth mutating call
 * (create, delete, extendRetention); that call and every later call of any kind throw. Whether the
 * Nth landed in storage is chosen by the test. A test then "restarts" by using the delegate, or a
 * fresh decorator, the way a new process would.
 *
 * <p>All injected failures are {@link InjectedFaultException}s. Failures of the delegate itself
 * pass through unchanged.
 *
 * <p>Concurrency: safe for many threads. Decisions are drawn from one seeded {@link Random} under a
 * lock, so a single-threaded test is exactly reproducible; with several threads the order of draws,
 * and so which call fails, depends on scheduling.
 */
public final class FaultInjectingBlobStore implements BlobStore {
  private enum Fault {
    NONE,
    BEFORE,
    AFTER
  }

  private interface IoCall<T> {
    T call() throws IOException;
  }

  private final BlobStore delegate;
  private final Random random;
  private final Map<BlobOperation, double[]> rates = new EnumMap<>(BlobOperation.class);
  private int crashAt;
  private boolean crashLands;
  private int mutations;
  private boolean crashed;
  private int injected;

  public FaultInjectingBlobStore(BlobStore delegate, long seed) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.random = new Random(seed);
  }

  /**
   * Sets how often {@code operation} fails: with probability {@code before} without reaching the
   * delegate, with probability {@code after} after it succeeded there. Their sum is at most 1.
   */
  public synchronized FaultInjectingBlobStore failures(
      BlobOperation operation, double before, double after) {
    if (before < 0 || after < 0 || before + after > 1) {
      throw new IllegalArgumentException("probabilities out of range: " + before + ", " + after);
    }
    rates.put(operation, new double[] {before, after});
    return this;
  }

  /**
   * Kills the simulated process at the {@code n}th mutating call counted from now on: it throws,
   * having reached the delegate only if {@code lastLands}, and every later call throws without
   * reaching it.
   */
  public synchronized FaultInjectingBlobStore crashAfterMutations(int n, boolean lastLands) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be at least 1: " + n);
    }
    crashAt = n;
    crashLands = lastLands;
    mutations = 0;
    return this;
  }

  /** True once the simulated process has crashed. */
  public synchronized boolean crashed() {
    return crashed;
  }

  /** How many failures were injected so far, crash included. */
  public synchronized int injectedFaults() {
    return injected;
  }

  private synchronized Fault decide(BlobOperation operation) {
    Fault fault = Fault.NONE;
    if (crashed) {
      fault = Fault.BEFORE;
    } else if (operation.mutates() && crashAt > 0 && ++mutations == crashAt) {
      crashed = true;
      fault = crashLands ? Fault.AFTER : Fault.BEFORE;
    } else if (rates.containsKey(operation)) {
      double[] rate = rates.get(operation);
      double draw = random.nextDouble();
      fault = draw < rate[0] ? Fault.BEFORE : draw < rate[0] + rate[1] ? Fault.AFTER : Fault.NONE;
    }
    if (fault != Fault.NONE) {
      injected++;
    }
    return fault;
  }

  private <T> T call(BlobOperation operation, String name, IoCall<T> call) throws IOException {
    Fault fault = decide(operation);
    if (fault == Fault.BEFORE) {
      throw new InjectedFaultException(operation + " " + name + " failed before reaching storage");
    }
    T result = call.call();
    if (fault == Fault.AFTER) {
      throw new InjectedFaultException(operation + " " + name + " done, but the answer was lost");
    }
    return result;
  }

  @Override
  public void create(String name, byte[] data, Retention retention) throws IOException {
    call(
        BlobOperation.CREATE,
        name,
        () -> {
          delegate.create(name, data, retention);
          return null;
        });
  }

  @Override
  public byte[] read(String name) throws IOException {
    return call(BlobOperation.READ, name, () -> delegate.read(name));
  }

  @Override
  public byte[] read(String name, long offset, int length) throws IOException {
    return call(BlobOperation.READ, name, () -> delegate.read(name, offset, length));
  }

  @Override
  public List<BlobInfo> list(String prefix) throws IOException {
    return call(BlobOperation.LIST, prefix, () -> delegate.list(prefix));
  }

  @Override
  public BlobInfo stat(String name) throws IOException {
    return call(BlobOperation.STAT, name, () -> delegate.stat(name));
  }

  @Override
  public void delete(String name) throws IOException {
    call(
        BlobOperation.DELETE,
        name,
        () -> {
          delegate.delete(name);
          return null;
        });
  }

  @Override
  public Retention retention(String name) throws IOException {
    return call(BlobOperation.RETENTION, name, () -> delegate.retention(name));
  }

  @Override
  public Retention extendRetention(String name, Retention.Mode mode, Instant until)
      throws IOException {
    return call(
        BlobOperation.EXTEND_RETENTION, name, () -> delegate.extendRetention(name, mode, until));
  }

  @Override
  public Capabilities capabilities() {
    return delegate.capabilities();
  }

  @Override
  public String describe() {
    return "faulty " + delegate.describe();
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
