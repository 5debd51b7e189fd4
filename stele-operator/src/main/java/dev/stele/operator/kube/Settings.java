package dev.stele.operator.kube;

import dev.stele.crypto.KdfParams;
import dev.stele.operator.store.DefaultStoreFactory;
import dev.stele.operator.store.OpenRepositories;
import dev.stele.operator.store.StoreFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What the reconcilers share: the clock every schedule reads, the way to storage, the key
 * derivation for new repositories (null: Stele's default; tests pass a cheap one), {@code recheck},
 * how long a repository waits before it looks again at a location that is not Available or retries
 * a deletion (1 minute; end-to-end tests make it short), {@code backupResources}, the resource
 * types a Backup collects (empty: what the API server's discovery lists, see {@link Discovery}),
 * {@code backupSyncPeriod}, how often each Ready repository is searched for backups the cluster
 * lacks (1 minute, Velero's {@code backupSyncPeriod}), and {@code image}, the image of Stele's own
 * containers, which the restore-wait init container runs (the operator's own; see {@link
 * dev.stele.operator.OwnImage}), and {@code repositories}, the repositories the process holds open
 * (one registry per process: every reconciler built with these settings shares it).
 */
public record Settings(
    Clock clock,
    StoreFactory stores,
    @Nullable Supplier<KdfParams> kdf,
    Duration recheck,
    List<ResourceType> backupResources,
    Duration backupSyncPeriod,
    String image,
    OpenRepositories repositories) {
  public static final Duration DEFAULT_RECHECK = Duration.ofMinutes(1);
  public static final Duration DEFAULT_BACKUP_SYNC_PERIOD = Duration.ofMinutes(1);

  /** The image deploy/ names, for when the operator cannot learn its own. */
  public static final String DEFAULT_IMAGE = "ghcr.io/stele-dev/stele:0.1.0";

  public Settings(
      Clock clock,
      StoreFactory stores,
      @Nullable Supplier<KdfParams> kdf,
      Duration recheck,
      List<ResourceType> backupResources,
      Duration backupSyncPeriod) {
    this(clock, stores, kdf, recheck, backupResources, backupSyncPeriod, DEFAULT_IMAGE);
  }

  public Settings {
    backupResources = List.copyOf(backupResources);
  }

  public Settings(
      Clock clock,
      StoreFactory stores,
      @Nullable Supplier<KdfParams> kdf,
      Duration recheck,
      List<ResourceType> backupResources,
      Duration backupSyncPeriod,
      String image) {
    this(
        clock,
        stores,
        kdf,
        recheck,
        backupResources,
        backupSyncPeriod,
        image,
        new OpenRepositories());
  }

  public Settings(
      Clock clock,
      StoreFactory stores,
      @Nullable Supplier<KdfParams> kdf,
      Duration recheck,
      List<ResourceType> backupResources) {
    this(clock, stores, kdf, recheck, backupResources, DEFAULT_BACKUP_SYNC_PERIOD);
  }

  public Settings(
      Clock clock, StoreFactory stores, @Nullable Supplier<KdfParams> kdf, Duration recheck) {
    this(clock, stores, kdf, recheck, List.of());
  }

  public Settings(Clock clock, StoreFactory stores, @Nullable Supplier<KdfParams> kdf) {
    this(clock, stores, kdf, DEFAULT_RECHECK);
  }

  /** These settings with Stele's containers running {@code image}. */
  public Settings withImage(String image) {
    return new Settings(
        clock, stores, kdf, recheck, backupResources, backupSyncPeriod, image, repositories);
  }

  /** These settings with {@code repositories} as the process's registry of open repositories. */
  public Settings withRepositories(OpenRepositories repositories) {
    return new Settings(
        clock, stores, kdf, recheck, backupResources, backupSyncPeriod, image, repositories);
  }

  public static Settings defaults() {
    Clock clock = Clock.systemUTC();
    return new Settings(clock, new DefaultStoreFactory(clock), null);
  }
}
