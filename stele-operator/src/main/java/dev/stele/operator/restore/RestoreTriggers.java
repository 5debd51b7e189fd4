package dev.stele.operator.restore;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.Restore;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** What wakes the restore reconciler besides a change to a Restore. */
final class RestoreTriggers {
  private static final String BY_BACKUP = "by-backup";

  private RestoreTriggers() {}

  /**
   * Reconciles a Restore when one of its PodVolumeRestores changes, and a waiting Restore when its
   * Backup does, instead of at the next recheck.
   */
  static List<EventSource<?, Restore>> sources(EventSourceContext<Restore> context) {
    context
        .getPrimaryCache()
        .addIndexer(
            BY_BACKUP,
            r ->
                r.getSpec() == null || r.getSpec().backupName == null
                    ? List.of()
                    : List.of(r.getMetadata().getNamespace() + "/" + r.getSpec().backupName));
    var volumes =
        InformerEventSourceConfiguration.from(PodVolumeRestore.class, Restore.class)
            .withNamespacesInheritedFromController()
            .withSecondaryToPrimaryMapper(
                (PodVolumeRestore pvr) ->
                    pvr.getSpec() == null || pvr.getSpec().restoreName == null
                        ? Set.of()
                        : Set.of(
                            new ResourceID(
                                pvr.getSpec().restoreName, pvr.getMetadata().getNamespace())))
            .build();
    var backups =
        InformerEventSourceConfiguration.from(Backup.class, Restore.class)
            .withName("restore-backups")
            .withNamespacesInheritedFromController()
            .withSecondaryToPrimaryMapper(
                (Backup b) ->
                    context
                        .getPrimaryCache()
                        .byIndex(
                            BY_BACKUP,
                            b.getMetadata().getNamespace() + "/" + b.getMetadata().getName())
                        .stream()
                        .map(ResourceID::fromResource)
                        .collect(Collectors.toSet()))
            .build();
    return List.of(
        new InformerEventSource<>(volumes, context), new InformerEventSource<>(backups, context));
  }
}
