package dev.stele.operator;

import dev.stele.crypto.KdfParams;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * What the reconcilers share: the clock every schedule reads, the way to storage, the key
 * derivation for new repositories (null: Stele's default; tests pass a cheap one), {@code recheck},
 * how long a repository waits before it looks again at a location that is not Available or retries
 * a deletion (1 minute; end-to-end tests make it short), {@code backupResources}, the resource
 * types a Backup collects (empty: what the API server's discovery lists, see {@link Discovery}),
 * and {@code backupSyncPeriod}, how often each Ready repository is searched for backups the cluster
 * lacks (1 minute, Velero's {@code backupSyncPeriod}).
 */
public record Settings(
    Clock clock,
    StoreFactory stores,
    Supplier<KdfParams> kdf,
    Duration recheck,
    List<ResourceType> backupResources,
    Duration backupSyncPeriod) {
  public static final Duration DEFAULT_RECHECK = Duration.ofMinutes(1);
  public static final Duration DEFAULT_BACKUP_SYNC_PERIOD = Duration.ofMinutes(1);

  public Settings {
    backupResources = List.copyOf(backupResources);
  }

  public Settings(
      Clock clock,
      StoreFactory stores,
      Supplier<KdfParams> kdf,
      Duration recheck,
      List<ResourceType> backupResources) {
    this(clock, stores, kdf, recheck, backupResources, DEFAULT_BACKUP_SYNC_PERIOD);
  }

  public Settings(Clock clock, StoreFactory stores, Supplier<KdfParams> kdf, Duration recheck) {
    this(clock, stores, kdf, recheck, List.of());
  }

  public Settings(Clock clock, StoreFactory stores, Supplier<KdfParams> kdf) {
    this(clock, stores, kdf, DEFAULT_RECHECK);
  }

  public static Settings defaults() {
    Clock clock = Clock.systemUTC();
    return new Settings(clock, new DefaultStoreFactory(clock), null);
  }
}
