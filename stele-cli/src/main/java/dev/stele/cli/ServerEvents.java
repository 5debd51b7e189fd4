package dev.stele.cli;

import dev.stele.k8s.api.BackupStorageLocationServer;
import dev.stele.k8s.api.ObjectReferences;
import dev.stele.server.EventSink;
import dev.stele.server.RefusalEvent;
import dev.stele.server.RestoreRequests;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;

/**
 * The repository server's Events in a cluster ({@code stele server --resource NAMESPACE/NAME}):
 * core/v1 Warning Events on its {@code BackupStorageLocationServer}, applied server-side, so that
 * the first apply of an Event creates it and the next ones raise its count. The server's Role
 * (created by the operator) allows exactly this: get its own resource, create and patch Events.
 */
final class ServerEvents implements EventSink, AutoCloseable {
  /** The field manager of the Events, and their source's component. */
  static final String COMPONENT = "stele-server";

  private final KubernetesClient client;
  private final BackupStorageLocationServer on;

  private ServerEvents(KubernetesClient client, BackupStorageLocationServer on) {
    this.client = client;
    this.on = on;
  }

  /**
   * Connects as fabric8 finds the cluster (in a pod, its service account; else {@code $KUBECONFIG}
   * or {@code ~/.kube/config}) and reads the resource {@code NAMESPACE/NAME}, whose uid the Events
   * name; a resource that is not there or an API server that refuses stops the server with one
   * line.
   */
  static ServerEvents connect(String resource) {
    int slash = resource.indexOf('/');
    if (slash <= 0 || slash == resource.length() - 1 || resource.indexOf('/', slash + 1) >= 0) {
      throw new CliException(ExitCode.USAGE, "--resource wants NAMESPACE/NAME, not " + resource);
    }
    String namespace = resource.substring(0, slash);
    String name = resource.substring(slash + 1);
    KubernetesClient client = new KubernetesClientBuilder().build();
    try {
      BackupStorageLocationServer bsls =
          client
              .resources(BackupStorageLocationServer.class)
              .inNamespace(namespace)
              .withName(name)
              .get();
      if (bsls == null) {
        throw CliException.notFound(
            "--resource: no BackupStorageLocationServer " + name + " in namespace " + namespace);
      }
      return new ServerEvents(client, bsls);
    } catch (KubernetesClientException e) {
      client.close();
      throw new CliException(
          ExitCode.ERROR,
          "--resource "
              + resource
              + ": the Kubernetes API server at "
              + client.getMasterUrl()
              + " said: "
              + String.valueOf(e.getMessage()).lines().findFirst().orElse(""),
          e);
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  @Override
  public void warning(RefusalEvent e) throws IOException {
    var meta = on.getMetadata();
    Event event =
        new EventBuilder()
            .withNewMetadata()
            .withName(meta.getName() + "." + e.id())
            .withNamespace(meta.getNamespace())
            .endMetadata()
            .withInvolvedObject(ObjectReferences.to(on))
            .withType("Warning")
            .withReason(e.reason())
            .withMessage(e.message())
            .withCount(e.count())
            .withFirstTimestamp(e.first().toString())
            .withLastTimestamp(e.last().toString())
            .withNewSource()
            .withComponent(COMPONENT)
            .endSource()
            .withReportingComponent(COMPONENT)
            .build();
    try {
      client.resource(event).fieldManager(COMPONENT).forceConflicts().serverSideApply();
    } catch (KubernetesClientException x) {
      throw new IOException("Event " + event.getMetadata().getName() + ": " + x.getMessage(), x);
    }
  }

  /** Users' restore requests, made as PodVolumeRestores beside this server's resource. */
  RestoreRequests restoreRequests() {
    return new PodVolumeRequests(client, on);
  }

  @Override
  public void close() {
    client.close();
  }
}
