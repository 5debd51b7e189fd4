package dev.stele.k8s.api;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** Recreates a backup's API resources, and fills its pod volumes, in this or another cluster. */
@Group(SteleApi.GROUP)
@Version(SteleApi.VERSION)
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase")
@AdditionalPrinterColumn(name = "Backup", jsonPath = ".spec.backupName")
@AdditionalPrinterColumn(
    name = "Restored",
    jsonPath = ".status.itemsRestored",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Errors",
    jsonPath = ".status.errors",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(name = "Message", jsonPath = ".status.message", priority = 1)
public class Restore extends CustomResource<RestoreSpec, RestoreStatus> implements Namespaced {
  private static final long serialVersionUID = 1L;
}
