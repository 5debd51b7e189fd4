package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.BackupStorageLocationServer;
import dev.stele.k8s.api.BackupStorageLocationServerSpec;
import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.server.RestoreRequests;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A user's restore request becomes a PodVolumeRestore beside the server's resource, with the fields
 * the node agent reads, and is listed back to its user only, with its phase.
 */
@EnableKubernetesMockClient(crud = true)
class PodVolumeRequestsTest {
  static KubernetesClient client;

  @Test
  void aRequestIsAPodVolumeRestoreOfItsUserListedWithItsPhase() throws Exception {
    var spec = new BackupStorageLocationServerSpec();
    spec.backupStorageLocationRepositoryRef = "default";
    var bsls = new BackupStorageLocationServer();
    bsls.setMetadata(new ObjectMetaBuilder().withName("files").withNamespace("stele").build());
    bsls.setSpec(spec);
    bsls = client.resource(bsls).create();
    RestoreRequests requests = new PodVolumeRequests(client, bsls);
    String snapshot = "ab".repeat(32);

    RestoreRequests.Request made =
        requests.create(
            new RestoreRequests.Ask("alice", snapshot, "shop", "web-0", "data", "/site", false));
    requests.create(
        new RestoreRequests.Ask("bob", snapshot, "shop", "web-0", "data", "/other", true));

    PodVolumeRestore pvr =
        client.resources(PodVolumeRestore.class).inNamespace("stele").withName(made.name()).get();
    assertThat(made.name()).matches("web-0-data-[0-9a-f]{8}");
    assertThat(pvr.getSpec().pod.namespace).isEqualTo("shop");
    assertThat(pvr.getSpec().pod.name).isEqualTo("web-0");
    assertThat(pvr.getSpec().volume).isEqualTo("data");
    assertThat(pvr.getSpec().repository).isEqualTo("default");
    assertThat(pvr.getSpec().snapshotID).isEqualTo(snapshot);
    assertThat(pvr.getSpec().paths).containsExactly("/site");
    assertThat(pvr.getSpec().requestedBy).isEqualTo("alice");
    assertThat(pvr.getSpec().overwrite).isFalse();
    assertThat(pvr.getSpec().restoreUID).isNull();
    assertThat(pvr.getMetadata().getAnnotations()).isNullOrEmpty();
    assertThat(made.phase()).isEqualTo("New");

    // The node agent says it waits for approval.
    var status = new PodVolumeStatus();
    status.phase = PodVolumePhase.AWAITING_APPROVAL;
    status.message = "awaiting approval";
    pvr.setStatus(status);
    client.resource(pvr).updateStatus();
    List<RestoreRequests.Request> alices = requests.list("alice");
    assertThat(alices).extracting(RestoreRequests.Request::name).containsExactly(made.name());
    assertThat(alices.get(0).phase()).isEqualTo("AwaitingApproval");
    assertThat(alices.get(0).paths()).containsExactly("/site");
    assertThat(requests.list("bob"))
        .singleElement()
        .satisfies(r -> assertThat(r.overwrite()).isTrue());
    assertThat(requests.list("mallory")).isEmpty();
  }
}
