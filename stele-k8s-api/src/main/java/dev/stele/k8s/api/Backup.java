package dev.stele.k8s.api;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A backup of API resources into a repository. The operator keeps its progress here, in the
 * cluster, and writes the snapshot manifest that makes the backup exist once, when it is done.
 */
@Group(SteleApi.GROUP)
@Version(SteleApi.VERSION)
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase")
@AdditionalPrinterColumn(name = "Repository", jsonPath = ".status.repository")
@AdditionalPrinterColumn(
    name = "Items",
    jsonPath = ".status.items",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Errors",
    jsonPath = ".status.errors",
    type = AdditionalPrinterColumn.Type.INTEGER)
// A string, not a date: kubectl shows a date in the future as <invalid>.
@AdditionalPrinterColumn(name = "Expires", jsonPath = ".status.expiration")
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(name = "Message", jsonPath = ".status.message", priority = 1)
// On the resource, not on BackupSpec: a Schedule's template is a BackupSpec too, and may change.
@ValidationRule(
    value = "has(self.spec) == has(oldSelf.spec) && (!has(self.spec) || self.spec == oldSelf.spec)",
    message = "a Backup's spec cannot change")
public class Backup extends CustomResource<BackupSpec, BackupStatus> implements Namespaced {
  private static final long serialVersionUID = 1L;
}
