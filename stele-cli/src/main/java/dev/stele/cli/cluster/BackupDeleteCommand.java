package dev.stele.cli.cluster;

import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.DeleteBackupRequest;
import dev.stele.k8s.api.DeleteBackupRequestSpec;
import dev.stele.k8s.api.SteleApi;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele backup delete NAME...}: one DeleteBackupRequest per backup, after a yes at the
 * terminal or with {@code --confirm}. The operator writes tombstones (deletion is a new object,
 * never a rewrite); the data stays in the bucket until its retention allows, then maintenance
 * reclaims it. Every name is checked before anything is created.
 */
@Command(
    name = "delete",
    description =
        "Ask the operator to delete Backups: it forgets their snapshots (tombstones) and removes"
            + " them; maintenance reclaims their data once the bucket's retention allows.")
final class BackupDeleteCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", arity = "1..*", description = "Backups to delete.")
  List<String> names;

  @Option(names = "--confirm", description = "Do not ask for confirmation.")
  boolean confirm;

  @Override
  int run() {
    List<Backup> backups = select(Backup.class, "backup", names);
    if (!Confirm.delete(env(), confirm, "backup", names, namespace, "")) {
      out().println("Nothing deleted.");
      return ExitCode.OK;
    }
    for (Backup backup : backups) {
      String backupName = backup.getMetadata().getName();
      Map<String, String> labels = new HashMap<>();
      if (backupName.length() <= 63) {
        labels.put(SteleApi.BACKUP_NAME_LABEL, backupName);
      }
      if (backup.getMetadata().getUid() != null) {
        labels.put(SteleApi.BACKUP_UID_LABEL, backup.getMetadata().getUid());
      }
      DeleteBackupRequest request = new DeleteBackupRequest();
      request.setMetadata(
          new ObjectMetaBuilder()
              .withGenerateName(prefix(backupName))
              .withNamespace(namespace)
              .withLabels(labels)
              .build());
      request.setSpec(new DeleteBackupRequestSpec());
      request.getSpec().backupName = backupName;
      DeleteBackupRequest created = client.resource(request).create();
      out()
          .printf(
              "Request to delete backup \"%s\" submitted (%s).%n",
              backupName, created.getMetadata().getName());
    }
    out()
        .println(
            "The operator forgets the backups' snapshots and removes the Backups; their data stays"
                + " in the bucket until its retention allows, and maintenance reclaims it then."
                + " 'kubectl"
                + " -n "
                + namespace
                + " get deletebackuprequests' says until when.");
    return ExitCode.OK;
  }

  /** {@code <backup>-}, short enough for the server's random suffix. */
  private static String prefix(String backup) {
    String p = backup.length() > 240 ? backup.substring(0, 240) : backup;
    return p.endsWith("-") || p.endsWith(".") ? p : p + "-";
  }
}
