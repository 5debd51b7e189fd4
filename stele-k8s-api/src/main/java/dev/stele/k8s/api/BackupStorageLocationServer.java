package dev.stele.k8s.api;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A repository server ({@code stele server}) on one {@link BackupStorageLocationRepository}: users
 * listed in a Secret reach, over TLS, the snapshots their access rules allow, without the
 * repository's password or the bucket's keys. The operator runs it as a Deployment with a Service,
 * both owned by this resource.
 */
@Group(SteleApi.GROUP)
@Version(SteleApi.VERSION)
@ShortNames("bsls")
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase")
@AdditionalPrinterColumn(name = "Endpoint", jsonPath = ".status.endpoint")
@AdditionalPrinterColumn(
    name = "Users",
    jsonPath = ".status.users",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Fingerprint", jsonPath = ".status.tlsFingerprint", priority = 1)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(name = "Message", jsonPath = ".status.message", priority = 1)
public class BackupStorageLocationServer
    extends CustomResource<BackupStorageLocationServerSpec, BackupStorageLocationServerStatus>
    implements Namespaced {
  private static final long serialVersionUID = 1L;
}
