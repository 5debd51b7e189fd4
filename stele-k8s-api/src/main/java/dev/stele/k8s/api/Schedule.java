package dev.stele.k8s.api;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** Creates a Backup from its template at every time its cron expression names. */
@Group(SteleApi.GROUP)
@Version(SteleApi.VERSION)
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase")
@AdditionalPrinterColumn(name = "Schedule", jsonPath = ".spec.schedule")
@AdditionalPrinterColumn(name = "Paused", jsonPath = ".spec.paused")
@AdditionalPrinterColumn(
    name = "Last Backup",
    jsonPath = ".status.lastBackup",
    type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(name = "Message", jsonPath = ".status.message", priority = 1)
public class Schedule extends CustomResource<ScheduleSpec, ScheduleStatus> implements Namespaced {
  private static final long serialVersionUID = 1L;
}
