package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.Durations;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.ReconcilerUtils;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code stele uninstall}: removes the operator and the node agent (their workloads, then their
 * RBAC), never a repository, a retained blob or a password.
 *
 * <p>What it keeps, and why. The namespace and its Secrets stay: a repository's password Secret is
 * the only key to its backups. Without {@code --crds} the CRDs and every Stele resource stay too,
 * so a later install carries on where this one stopped. With {@code --crds} the CRDs are deleted,
 * and with them every Stele resource; the bucket is untouched (a later install pointed at it finds
 * every backup by itself). Deleting a BackupStorageLocationRepository runs its {@code
 * deletionPolicy} through the operator's finalizer, and {@code Delete} deletes the expired part of
 * a repository. Uninstall must never trigger that, so before the CRDs go it waits until the
 * operator's pods are gone (none is left to act on a deletion, or to put a finalizer back) and then
 * removes that finalizer from every repository resource: they are deleted as resources only.
 */
@Command(
    name = "uninstall",
    description =
        "Remove the operator and node agent (workloads, RBAC); --crds also removes the CRDs and"
            + " with them every Stele resource. Never touches a bucket, a repository or a"
            + " Secret.")
public final class UninstallCommand extends ClusterCommand {
  static final String FINALIZER =
      ReconcilerUtils.getDefaultFinalizerName(BackupStorageLocationRepository.class);

  @Option(
      names = "--crds",
      description = "Also delete the CRDs and every Stele resource (the bucket is untouched).")
  boolean crds;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "2m",
      description = "How long to wait for the workloads' pods to go. Default: ${DEFAULT-VALUE}.")
  String timeout;

  @Override
  int run() throws InterruptedException {
    Duration wait = Durations.parse(timeout, null);
    if (wait == null) {
      throw CliException.usage("--timeout " + timeout + ": use a duration such as 90s or 2m");
    }
    List<HasMetadata> objects = Installation.base().inNamespace(namespace).objects();
    List<HasMetadata> workloads = objects.stream().filter(UninstallCommand::workload).toList();
    workloads.forEach(this::delete);
    awaitPodsGone(workloads, wait);
    objects.stream().filter(o -> !workload(o) && !kept(o)).forEach(this::delete);
    if (crds) {
      for (var bslr :
          client
              .resources(BackupStorageLocationRepository.class)
              .inAnyNamespace()
              .list()
              .getItems()) {
        if (bslr.getMetadata().getFinalizers().contains(FINALIZER)) {
          client
              .resource(bslr)
              .edit(
                  r -> {
                    r.getMetadata().getFinalizers().remove(FINALIZER);
                    return r;
                  });
        }
      }
      for (HasMetadata o : objects) {
        if (o.getKind().equals("CustomResourceDefinition")) {
          delete(o);
        }
      }
    }
    out()
        .printf(
            "Kept: namespace %s and its Secrets (repository passwords, credentials)%s; every bucket"
                + " is untouched.%n",
            namespace, crds ? "" : ", the CRDs and every Stele resource");
    return ExitCode.OK;
  }

  private static boolean workload(HasMetadata o) {
    return o instanceof Deployment || o instanceof DaemonSet;
  }

  private static boolean kept(HasMetadata o) {
    return o.getKind().equals("Namespace") || o.getKind().equals("CustomResourceDefinition");
  }

  /** Deletes {@code o}, saying so only if it was there (installed --no-node-agent, a rerun). */
  private void delete(HasMetadata o) {
    if (!client.resource(o).delete().isEmpty()) {
      out().println("deleted " + o.getKind() + " " + o.getMetadata().getName());
    }
  }

  /** Until no pod of {@code workloads} is left, or a failure after {@code wait}. */
  private void awaitPodsGone(List<HasMetadata> workloads, Duration wait)
      throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    for (HasMetadata o : workloads) {
      var labels =
          o instanceof Deployment d
              ? d.getSpec().getSelector().getMatchLabels()
              : ((DaemonSet) o).getSpec().getSelector().getMatchLabels();
      while (!client.pods().inNamespace(namespace).withLabels(labels).list().getItems().isEmpty()) {
        if (System.nanoTime() > deadline) {
          throw new CliException(
              ExitCode.ERROR,
              "pods of "
                  + o.getMetadata().getName()
                  + " are still running after "
                  + timeout
                  + "; nothing else was removed: run stele uninstall again");
        }
        Thread.sleep(1000);
      }
    }
  }
}
