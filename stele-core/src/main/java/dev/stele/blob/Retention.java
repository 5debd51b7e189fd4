package dev.stele.blob;

import java.time.Instant;
import java.util.Objects;

/**
 * How long a blob must not be deleted. {@link #NONE} means it may be deleted at any time.
 *
 * <p>{@code GOVERNANCE} and {@code COMPLIANCE} carry S3's meaning; a store that cannot enforce them
 * records them and still refuses to delete before {@link #until()}.
 */
public record Retention(Mode mode, Instant until) {

  /** Retention modes, as S3 Object Lock names them. */
  public enum Mode {
    NONE,
    GOVERNANCE,
    COMPLIANCE
  }

  public static final Retention NONE = new Retention(Mode.NONE, Instant.EPOCH);

  public Retention {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(until, "until");
    if (mode == Mode.NONE && !until.equals(Instant.EPOCH)) {
      throw new IllegalArgumentException("retention mode NONE takes no instant");
    }
  }

  public static Retention of(Mode mode, Instant until) {
    return mode == Mode.NONE ? NONE : new Retention(mode, until);
  }

  /** True while a blob with this retention must not be deleted. */
  public boolean retainedAt(Instant now) {
    return mode != Mode.NONE && now.isBefore(until);
  }

  /**
   * True if this retention keeps a blob at least until {@code instant}: the one test of "falls
   * short" that backup, maintenance and the retention audit share.
   */
  public boolean lastsUntil(Instant instant) {
    return !isNone() && !until.isBefore(instant);
  }

  public boolean isNone() {
    return mode == Mode.NONE;
  }

  @Override
  public String toString() {
    return isNone() ? "none" : mode.name().toLowerCase(java.util.Locale.ROOT) + " until " + until;
  }
}
