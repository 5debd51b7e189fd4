package dev.stele.k8s.api;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Where backups go: a bucket (or a mounted directory), its credentials and the object lock that
 * repositories there must keep. The operator validates it every {@code validationFrequency} and
 * writes what the bucket reports into the status.
 */
@Group(SteleApi.GROUP)
@Version(SteleApi.VERSION)
@ShortNames("bsl")
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase")
@AdditionalPrinterColumn(name = "Protection", jsonPath = ".status.protection")
@AdditionalPrinterColumn(name = "Versioning", jsonPath = ".status.versioning")
@AdditionalPrinterColumn(
    name = "Last Validated",
    jsonPath = ".status.lastValidationTime",
    type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(name = "Message", jsonPath = ".status.message", priority = 1)
public class BackupStorageLocation
    extends CustomResource<BackupStorageLocationSpec, BackupStorageLocationStatus>
    implements Namespaced {
  private static final long serialVersionUID = 1L;
}
