package dev.stele.k8s.api;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * One repository in a {@link BackupStorageLocation}, under {@code <prefix>/repositories/<name>/}.
 * The operator creates it as soon as the location is Available, or adopts the one already there.
 */
@Group(SteleApi.GROUP)
@Version(SteleApi.VERSION)
@ShortNames("bslr")
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase")
@AdditionalPrinterColumn(name = "Location", jsonPath = ".spec.backupStorageLocation")
@AdditionalPrinterColumn(name = "Lock", jsonPath = ".status.lock")
@AdditionalPrinterColumn(
    name = "Snapshots",
    jsonPath = ".status.snapshots",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Bytes",
    jsonPath = ".status.packBytes",
    type = AdditionalPrinterColumn.Type.INTEGER,
    priority = 1)
@AdditionalPrinterColumn(
    name = "Last Maintenance",
    jsonPath = ".status.lastMaintenanceTime",
    type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(name = "Message", jsonPath = ".status.message", priority = 1)
public class BackupStorageLocationRepository
    extends CustomResource<
        BackupStorageLocationRepositorySpec, BackupStorageLocationRepositoryStatus>
    implements Namespaced {
  private static final long serialVersionUID = 1L;
}
