package dev.stele.k8s.api;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * One volume of one restored pod to fill from a volume snapshot, served by the node agent of the
 * node the pod is scheduled to, before the pod's containers start. Created by the Restore
 * reconciler, in the Restore's namespace.
 */
@Group(SteleApi.GROUP)
@Version(SteleApi.VERSION)
@ShortNames("pvr")
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase")
@AdditionalPrinterColumn(name = "Restore", jsonPath = ".spec.restoreName")
@AdditionalPrinterColumn(name = "Pod", jsonPath = ".spec.pod.name")
@AdditionalPrinterColumn(name = "Volume", jsonPath = ".spec.volume")
@AdditionalPrinterColumn(
    name = "Bytes",
    jsonPath = ".status.bytesDone",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Message", jsonPath = ".status.message", priority = 1)
public class PodVolumeRestore extends CustomResource<PodVolumeRestoreSpec, PodVolumeStatus>
    implements Namespaced {
  private static final long serialVersionUID = 1L;
}
