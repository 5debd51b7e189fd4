package dev.stele.operator;

import dev.stele.crypto.KdfParams;
import java.time.Clock;
import java.util.function.Supplier;

/**
 * What the reconcilers share: the clock every schedule reads, the way to storage, and the key
 * derivation for new repositories (null: Stele's default; tests pass a cheap one).
 */
public record Settings(Clock clock, StoreFactory stores, Supplier<KdfParams> kdf) {

  public static Settings defaults() {
    Clock clock = Clock.systemUTC();
    return new Settings(clock, new DefaultStoreFactory(clock), null);
  }
}
