package dev.stele.cli.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RestoreStatus;
import dev.stele.operator.BackupRepository;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele restore describe NAME}: what the Restore's spec asks and its status holds, with its
 * pod volumes (from its PodVolumeRestores).
 */
@Command(name = "describe", description = "Show a Restore: phase, times, filters, volumes.")
public final class RestoreDescribeCommand extends ClusterCommand {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Parameters(paramLabel = "NAME", description = "The Restore.")
  String name;

  @Option(
      names = "--details",
      description =
          "Also list what happened to every object, read from the restore's results in the"
              + " backup's repository (as restore logs reads them).")
  boolean details;

  @Mixin OutputOption output;

  @Override
  int run() throws IOException {
    boolean text = output.text();
    Restore restore = require(Restore.class, "restore", name);
    if (!text) {
      output.print(client, out(), List.of(restore), true);
      return ExitCode.OK;
    }
    RestoreSpec spec = restore.getSpec() == null ? new RestoreSpec() : restore.getSpec();
    RestoreStatus s = restore.getStatus() == null ? new RestoreStatus() : restore.getStatus();
    Details d = new Details(out());
    Describe.header(d, restore, namespace, s.phase, s.message, s.errors, s.warnings);
    d.end();
    d.field("Backup", spec.backupName);
    Describe.filters(
        d,
        spec.includedNamespaces,
        spec.excludedNamespaces,
        spec.includedResources,
        spec.excludedResources,
        spec.includeClusterResources);
    d.field("Namespace mappings", mappings(spec.namespaceMapping));
    d.field("Label selector", KubeNames.selector(spec.labelSelector));
    d.field(
        "Existing resource policy",
        spec.existingResourcePolicy == null ? "none" : spec.existingResourcePolicy);
    d.field("Restore volumes", !Boolean.FALSE.equals(spec.restorePVs));
    d.end();
    Describe.times(d, restore, s.startTimestamp, s.completionTimestamp);
    d.field("Items restored", s.itemsRestored == null ? "-" : s.itemsRestored);
    d.field("Items skipped (existed)", s.itemsSkipped == null ? "-" : s.itemsSkipped);
    d.field("Results snapshot", s.resultsSnapshotID);
    volumes(d, restore, s);
    d.end();
    if (details) {
      results(d, restore, s);
    }
    return ExitCode.OK;
  }

  /**
   * Every selected object and what became of it (restored, updated, skipped or failed), where it
   * went and why, from the results' restore.json (docs/format.md section 10).
   */
  private void results(Details d, Restore restore, RestoreStatus s) throws IOException {
    Backup backup = RestoreLogsCommand.backupOf(this, restore);
    byte[] json =
        RepositoryReads.read(
            client,
            backup,
            env().clock(),
            repo ->
                repo.read(
                    s.resultsSnapshotID, BackupRepository.RESTORE_RESULTS, "restore " + name));
    JsonNode doc = JSON.readTree(json);
    Map<String, List<String>> byResult = new TreeMap<>();
    for (JsonNode o : doc.path("objects")) {
      String from =
          (o.path("namespace").isTextual() ? o.path("namespace").asText() + "/" : "")
              + o.path("name").asText();
      String to = o.path("restoredAs").asText(from);
      String line =
          o.path("resource").asText()
              + " "
              + from
              + (to.equals(from) ? "" : " as " + to)
              + (o.path("message").isTextual() ? ": " + o.path("message").asText() : "");
      byResult.computeIfAbsent(o.path("result").asText("?"), r -> new ArrayList<>()).add(line);
    }
    d.heading("Resource List");
    if (byResult.isEmpty()) {
      d.line("<none>");
    }
    byResult.forEach(
        (result, lines) -> {
          d.line(result + ":");
          lines.forEach(l -> d.line("  - " + l));
        });
    for (String list : List.of("warnings", "errors")) {
      if (!doc.path(list).isEmpty()) {
        d.heading(list.equals("errors") ? "Errors" : "Warnings");
        doc.path(list).forEach(w -> d.line(w.asText()));
      }
    }
    d.end();
  }

  static String mappings(Map<String, String> map) {
    if (map == null || map.isEmpty()) {
      return "<none>";
    }
    return map.entrySet().stream()
        .map(e -> e.getKey() + ":" + e.getValue())
        .collect(Collectors.joining(", "));
  }

  private void volumes(Details d, Restore restore, RestoreStatus s) {
    String uid = restore.getMetadata().getUid();
    List<Describe.Volume> volumes =
        client.resources(PodVolumeRestore.class).inNamespace(namespace).list().getItems().stream()
            .filter(p -> p.getSpec() != null && name.equals(p.getSpec().restoreName))
            .filter(
                p ->
                    uid == null
                        || p.getSpec().restoreUID == null
                        || uid.equals(p.getSpec().restoreUID))
            .map(
                p ->
                    new Describe.Volume(
                        p.getSpec().pod, p.getSpec().volume, p.getStatus(), p.getSpec().snapshotID))
            .toList();
    Describe.volumes(d, s.volumes, s.volumesCompleted, s.volumesFailed, volumes);
  }
}
