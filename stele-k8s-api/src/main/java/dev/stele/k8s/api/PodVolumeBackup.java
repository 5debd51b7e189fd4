package dev.stele.k8s.api;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * One volume of one pod to back up, served by the node agent on the pod's node: the volume's
 * directory becomes a snapshot in the backup's repository. Created by the Backup reconciler, in the
 * Backup's namespace, labelled with the backup's name and uid.
 */
@Group(SteleApi.GROUP)
@Version(SteleApi.VERSION)
@ShortNames("pvb")
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase")
@AdditionalPrinterColumn(name = "Backup", jsonPath = ".spec.backupName")
@AdditionalPrinterColumn(name = "Pod", jsonPath = ".spec.pod.name")
@AdditionalPrinterColumn(name = "Volume", jsonPath = ".spec.volume")
@AdditionalPrinterColumn(name = "Node", jsonPath = ".spec.node")
@AdditionalPrinterColumn(
    name = "Bytes",
    jsonPath = ".status.bytesDone",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Message", jsonPath = ".status.message", priority = 1)
public class PodVolumeBackup extends CustomResource<PodVolumeBackupSpec, PodVolumeStatus>
    implements Namespaced {
  private static final long serialVersionUID = 1L;
}
