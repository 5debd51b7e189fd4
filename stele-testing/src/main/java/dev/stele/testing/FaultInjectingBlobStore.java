package dev.stele.testing;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobStore;
import dev.stele.blob.BlobVersion;
import dev.stele.blob.ForwardingBlobStore;
import dev.stele.blob.Retention;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
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
 * <p>A streamed read ({@link #openStream}) counts as a {@link BlobOperation#READ}: a fault before
 * fails the open; a fault after opens the delegate's stream, but the caller's stream breaks off
 * halfway through the blob, as a connection lost mid-answer does.
 *
 * <p>And a crash: {@link #crashAfterMutations} kills the simulated process at its Nth mutating call
 * (create, delete, extendRetention); that call and every later call of any kind throw. Whether the
 * Nth landed in storage is chosen by the test. A test then "restarts" by using the delegate, or a
 * fresh decorator, the way a new process would.
 *
 * <p>All injected failures are {@link InjectedFaultException}s. Failures of the delegate itself
 * pass through unchanged. A point-in-time view ({@link #asOf}) of a faulty store fails the same
 * way, drawing from the same dice and crashing with it.
 *
 * <p>Concurrency: safe for many threads. Decisions are drawn from one seeded {@link Random} under a
 * lock, so a single-threaded test is exactly reproducible; with several threads the order of draws,
 * and so which call fails, depends on scheduling.
 */
public final class FaultInjectingBlobStore extends ForwardingBlobStore {
  private enum Fault {
    NONE,
    BEFORE,
    AFTER
  }

  private interface IoCall<T> {
    T call() throws IOException;
  }

  /** The faults armed and the decisions drawn, shared by a store and its views. */
  private static final class Dice {
    final Random random;
    final Map<BlobOperation, double[]> rates = new EnumMap<>(BlobOperation.class);
    int crashAt;
    boolean crashLands;
    int mutations;
    boolean crashed;
    int injected;

    Dice(long seed) {
      random = new Random(seed);
    }
  }

  private final Dice dice;

  public FaultInjectingBlobStore(BlobStore delegate, long seed) {
    this(delegate, new Dice(seed));
  }

  private FaultInjectingBlobStore(BlobStore delegate, Dice dice) {
    super(Objects.requireNonNull(delegate, "delegate"));
    this.dice = dice;
  }

  /**
   * Sets how often {@code operation} fails: with probability {@code before} without reaching the
   * delegate, with probability {@code after} after it succeeded there. Their sum is at most 1.
   */
  public FaultInjectingBlobStore failures(BlobOperation operation, double before, double after) {
    if (before < 0 || after < 0 || before + after > 1) {
      throw new IllegalArgumentException("probabilities out of range: " + before + ", " + after);
    }
    synchronized (dice) {
      dice.rates.put(operation, new double[] {before, after});
    }
    return this;
  }

  /**
   * Kills the simulated process at the {@code n}th mutating call counted from now on: it throws,
   * having reached the delegate only if {@code lastLands}, and every later call throws without
   * reaching it.
   */
  public FaultInjectingBlobStore crashAfterMutations(int n, boolean lastLands) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be at least 1: " + n);
    }
    synchronized (dice) {
      dice.crashAt = n;
      dice.crashLands = lastLands;
      dice.mutations = 0;
    }
    return this;
  }

  /** True once the simulated process has crashed. */
  public boolean crashed() {
    synchronized (dice) {
      return dice.crashed;
    }
  }

  /** How many failures were injected so far, crash included. */
  public int injectedFaults() {
    synchronized (dice) {
      return dice.injected;
    }
  }

  private Fault decide(BlobOperation operation) {
    synchronized (dice) {
      Fault fault = Fault.NONE;
      if (dice.crashed) {
        fault = Fault.BEFORE;
      } else if (operation.mutates() && dice.crashAt > 0 && ++dice.mutations == dice.crashAt) {
        dice.crashed = true;
        fault = dice.crashLands ? Fault.AFTER : Fault.BEFORE;
      } else if (dice.rates.containsKey(operation)) {
        double[] rate = dice.rates.get(operation);
        double draw = dice.random.nextDouble();
        fault = draw < rate[0] ? Fault.BEFORE : draw < rate[0] + rate[1] ? Fault.AFTER : Fault.NONE;
      }
      if (fault != Fault.NONE) {
        dice.injected++;
      }
      return fault;
    }
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
          delegate().create(name, data, retention);
          return null;
        });
  }

  @Override
  public byte[] read(String name) throws IOException {
    return call(BlobOperation.READ, name, () -> delegate().read(name));
  }

  @Override
  public byte[] read(String name, long offset, int length) throws IOException {
    return call(BlobOperation.READ, name, () -> delegate().read(name, offset, length));
  }

  @Override
  public InputStream openStream(String name) throws IOException {
    Fault fault = decide(BlobOperation.READ);
    if (fault == Fault.BEFORE) {
      throw new InjectedFaultException("READ " + name + " failed before reaching storage");
    }
    InputStream in = delegate().openStream(name);
    if (fault == Fault.NONE) {
      return in;
    }
    byte[] whole;
    try (in) {
      whole = in.readAllBytes();
    }
    return new BrokenStream(name, whole, whole.length / 2);
  }

  /** The first {@code delivered} bytes of a blob, then a failure where the rest should be. */
  private static final class BrokenStream extends InputStream {
    private final String name;
    private final int size;
    private final ByteArrayInputStream head;

    BrokenStream(String name, byte[] whole, int delivered) {
      this.name = name;
      this.size = whole.length;
      this.head = new ByteArrayInputStream(whole, 0, delivered);
    }

    @Override
    public int read() throws IOException {
      int b = head.read();
      return b >= 0 ? b : broken();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      int n = head.read(b, off, len);
      return n >= 0 ? n : broken();
    }

    private int broken() throws InjectedFaultException {
      throw new InjectedFaultException(
          "READ " + name + " broke off at byte " + (size / 2) + " of " + size);
    }
  }

  @Override
  public List<BlobInfo> list(String prefix) throws IOException {
    return call(BlobOperation.LIST, prefix, () -> delegate().list(prefix));
  }

  @Override
  public BlobInfo stat(String name) throws IOException {
    return call(BlobOperation.STAT, name, () -> delegate().stat(name));
  }

  @Override
  public void delete(String name) throws IOException {
    call(
        BlobOperation.DELETE,
        name,
        () -> {
          delegate().delete(name);
          return null;
        });
  }

  @Override
  public Retention retention(String name) throws IOException {
    return call(BlobOperation.RETENTION, name, () -> delegate().retention(name));
  }

  @Override
  public Retention extendRetention(String name, Retention.Mode mode, Instant until)
      throws IOException {
    return call(
        BlobOperation.EXTEND_RETENTION, name, () -> delegate().extendRetention(name, mode, until));
  }

  @Override
  public BlobStore asOf(Instant instant) {
    return new FaultInjectingBlobStore(delegate().asOf(instant), dice);
  }

  @Override
  public List<BlobVersion> versions(String name) throws IOException {
    return call(BlobOperation.VERSIONS, name, () -> delegate().versions(name));
  }

  @Override
  public byte[] readVersion(String name, String versionId) throws IOException {
    return call(BlobOperation.READ, name, () -> delegate().readVersion(name, versionId));
  }

  @Override
  public byte[] readVersion(String name, String versionId, long offset, int length)
      throws IOException {
    return call(
        BlobOperation.READ, name, () -> delegate().readVersion(name, versionId, offset, length));
  }

  @Override
  public String describe() {
    return "faulty " + delegate().describe();
  }
}
