package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.FilesystemBlobStore;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.k8s.api.RunPhase;
import dev.stele.operator.kube.Discovery;
import dev.stele.operator.kube.ResourceType;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.snapshot.SnapshotCatalog;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resource types come from the API server's discovery documents, served here by the mock server
 * beside its CRUD store: custom resources are collected, subresources, events, nodes and Stele's
 * own resources are not.
 */
@EnableKubernetesMockClient(crud = true)
class DiscoveryTest {
  static KubernetesClient client;
  static KubernetesMockServer server;

  @TempDir Path base;

  @BeforeAll
  static void serveDiscovery() {
    server
        .expect()
        .get()
        .withPath("/api/v1")
        .andReturn(
            200,
            new APIResourceListBuilder()
                .withGroupVersion("v1")
                .addNewResource()
                .withName("namespaces")
                .withKind("Namespace")
                .withNamespaced(false)
                .withVerbs("get", "list", "watch", "create")
                .endResource()
                .addNewResource()
                .withName("configmaps")
                .withKind("ConfigMap")
                .withNamespaced(true)
                .withVerbs("get", "list", "create")
                .endResource()
                .addNewResource()
                .withName("pods/log")
                .withKind("Pod")
                .withNamespaced(true)
                .withVerbs("get")
                .endResource()
                .addNewResource()
                .withName("events")
                .withKind("Event")
                .withNamespaced(true)
                .withVerbs("get", "list")
                .endResource()
                .addNewResource()
                .withName("bindings")
                .withKind("Binding")
                .withNamespaced(true)
                .withVerbs("create")
                .endResource()
                .addNewResource()
                .withName("nodes")
                .withKind("Node")
                .withNamespaced(false)
                .withVerbs("get", "list")
                .endResource()
                .build())
        .always();
    server
        .expect()
        .get()
        .withPath("/apis")
        .andReturn(
            200,
            new APIGroupListBuilder()
                .addNewGroup()
                .withName("example.com")
                .withNewPreferredVersion()
                .withGroupVersion("example.com/v2")
                .withVersion("v2")
                .endPreferredVersion()
                .endGroup()
                .addNewGroup()
                .withName("stele.dev")
                .withNewPreferredVersion()
                .withGroupVersion("stele.dev/v1alpha1")
                .withVersion("v1alpha1")
                .endPreferredVersion()
                .endGroup()
                .build())
        .always();
    server
        .expect()
        .get()
        .withPath("/apis/example.com/v2")
        .andReturn(
            200,
            new APIResourceListBuilder()
                .withGroupVersion("example.com/v2")
                .addNewResource()
                .withName("widgets")
                .withKind("Widget")
                .withNamespaced(true)
                .withVerbs("get", "list")
                .endResource()
                .build())
        .always();
  }

  @Test
  void typesAreWhatDiscoveryListsThatABackupCanHold() {
    assertThat(Discovery.types(client))
        .extracting(ResourceType::qualifiedName)
        .containsExactly("namespaces", "configmaps", "widgets.example.com");
    assertThat(Discovery.types(client).get(2).version()).isEqualTo("v2");
  }

  @Test
  void aBackupCollectsACustomResourceFoundByDiscovery() throws IOException {
    Files.createDirectories(base.resolve("bucket"));
    OperatorFixture op = new OperatorFixture(client);
    var spec = new BackupStorageLocationSpec();
    spec.provider = "filesystem";
    spec.config = Map.of("path", base.toString());
    spec.objectStorage = new BackupStorageLocationSpec.ObjectStorage();
    spec.objectStorage.bucket = "bucket";
    op.bsl("default", spec);
    op.reconcile("default");
    assertThat(op.reconcileRepository("default").getStatus().phase)
        .isEqualTo(RepositoryPhase.READY);
    for (String ns : List.of(NS, "shop")) {
      client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .create();
    }
    GenericKubernetesResource widget =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("example.com/v2")
            .withKind("Widget")
            .withNewMetadata()
            .withName("blue")
            .withNamespace("shop")
            .endMetadata()
            .withAdditionalProperties(Map.of("spec", Map.of("colour", "blue")))
            .build();
    client
        .genericKubernetesResources(
            new ResourceDefinitionContext.Builder()
                .withGroup("example.com")
                .withVersion("v2")
                .withPlural("widgets")
                .withKind("Widget")
                .withNamespaced(true)
                .build())
        .inNamespace("shop")
        .resource(widget)
        .create();
    var backupSpec = new BackupSpec();
    backupSpec.includedNamespaces = List.of("shop");
    op.backup("widgets", backupSpec);
    Backup done = op.reconcileBackup("widgets");
    assertThat(done.getStatus().phase).as(done.getStatus().message).isEqualTo(RunPhase.COMPLETED);
    assertThat(done.getStatus().items).isEqualTo(2); // the namespace and the widget
    String password = op.secretValue("default-repository-password", "password");
    try (Repository repo =
        Repository.open(
            new FilesystemBlobStore(base.resolve("bucket/repositories/default"), op.clock),
            password.toCharArray(),
            op.clock)) {
      String tree = new SnapshotCatalog(repo).read(Id.parse(done.getStatus().snapshotID)).tree();
      assertThat(
              BackupOperatorTest.document(
                      repo, tree, "resources/example.com/widgets/shop/blue.json")
                  .at("/spec/colour")
                  .asText())
          .isEqualTo("blue");
    }
    op.assertWriteOnce();
  }
}
