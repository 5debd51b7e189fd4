package dev.stele.operator.restore;

import static dev.stele.operator.restore.RestoreFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RestoreStatus;
import dev.stele.k8s.api.RunPhase;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.TypedLocalObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Restores through a ConfigMap of Velero's resource modifier rules. */
@EnableKubernetesMockClient(crud = true)
class RestoreModifiersTest {
  static KubernetesClient client;

  static final String RULES =
      """
      version: v1
      resourceModifierRules:
      - conditions:
          groupResource: deployments.apps
          namespaces: [shop]
        patches:
        - {operation: test, path: /spec/replicas, value: "3"}
        - {operation: replace, path: /spec/replicas, value: "1"}
      - conditions:
          groupResource: configmaps
          resourceNameRegex: "^settings$"
        mergePatches:
        - patchData: |
            data: {mode: slow}
      """;

  @TempDir Path base;
  RestoreFixture op;

  @BeforeEach
  void setUp() throws Exception {
    RestoreOperatorTest.clean(client);
    Files.createDirectories(base.resolve("bucket"));
    op = new RestoreFixture(client, base);
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName("shop").endMetadata().build())
        .create();
    client
        .configMaps()
        .inNamespace("shop")
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("settings")
                .endMetadata()
                .addToData("mode", "fast")
                .build())
        .create();
    client
        .apps()
        .deployments()
        .inNamespace("shop")
        .resource(
            new DeploymentBuilder()
                .withNewMetadata()
                .withName("web")
                .endMetadata()
                .withNewSpec()
                .withReplicas(3)
                .withNewTemplate()
                .withNewSpec()
                .addNewContainer()
                .withName("web")
                .withImage("nginx:1.27")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build())
        .create();
    var spec = new BackupSpec();
    spec.includedNamespaces = List.of("shop");
    assertThat(op.backup("nightly", spec).getStatus().phase).isEqualTo(RunPhase.COMPLETED);
    rules("modifiers", RULES);
  }

  @AfterEach
  void writeOnce() {
    op.assertWriteOnce();
  }

  void rules(String name, String yaml) {
    client
        .configMaps()
        .inNamespace(NS)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .addToData("rules.yaml", yaml)
                .build())
        .create();
  }

  static RestoreSpec modified(String configMap, String into) {
    var spec = new RestoreSpec();
    spec.backupName = "nightly";
    spec.resourceModifier =
        new TypedLocalObjectReferenceBuilder().withKind("ConfigMap").withName(configMap).build();
    if (into != null) {
      spec.namespaceMapping = Map.of("shop", into);
    }
    return spec;
  }

  Deployment web(String ns) {
    return client.apps().deployments().inNamespace(ns).withName("web").get();
  }

  String mode(String ns) {
    return client.configMaps().inNamespace(ns).withName("settings").get().getData().get("mode");
  }

  @Test
  void rulesChangeObjectsBeforeTheyAreCreated() {
    op.restore("copy", modified("modifiers", "shop-copy"));
    RestoreStatus s = op.pass("copy").getStatus();

    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.COMPLETED);
    assertThat(web("shop-copy").getSpec().getReplicas()).isEqualTo(1);
    assertThat(mode("shop-copy")).isEqualTo("slow");
    // The backup itself is unchanged: a restore without rules gets it as it was.
    var plain = new RestoreSpec();
    plain.backupName = "nightly";
    plain.namespaceMapping = Map.of("shop", "shop-plain");
    op.restore("plain", plain);
    assertThat(op.pass("plain").getStatus().phase).isEqualTo(RunPhase.COMPLETED);
    assertThat(web("shop-plain").getSpec().getReplicas()).isEqualTo(3);
    assertThat(mode("shop-plain")).isEqualTo("fast");
  }

  @Test
  void existingObjectsAreReplacedByTheModifiedOnesUnderUpdateAndLeftUnderNone() {
    op.restore("keep", modified("modifiers", null));
    RestoreStatus s = op.pass("keep").getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.COMPLETED);
    assertThat(s.itemsSkipped).isEqualTo(3);
    assertThat(web("shop").getSpec().getReplicas()).isEqualTo(3);

    RestoreSpec update = modified("modifiers", null);
    update.existingResourcePolicy = "update";
    op.restore("update", update);
    s = op.pass("update").getStatus();

    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.COMPLETED);
    assertThat(s.itemsRestored).isEqualTo(3);
    assertThat(web("shop").getSpec().getReplicas()).isEqualTo(1);
    assertThat(mode("shop")).isEqualTo("slow");
  }

  @Test
  void aMissingConfigMapOrAnInvalidRuleFailsTheRestoreBeforeAnythingIsCreated() {
    op.restore("missing", modified("nope", "m-copy"));
    Restore missing = op.pass("missing");
    assertThat(missing.getStatus().phase).isEqualTo(RunPhase.FAILED);
    assertThat(missing.getStatus().message)
        .isEqualTo("spec.resourceModifier: ConfigMap nope does not exist in namespace " + NS);
    assertThat(missing.getStatus().startTimestamp).isNull();
    assertThat(op.eventReasons("missing")).contains("Failed");
    assertThat(client.namespaces().withName("m-copy").get()).isNull();

    rules("broken", RULES.replace("operation: replace", "operation: drop"));
    op.restore("broken", modified("broken", "b-copy"));
    Restore broken = op.pass("broken");
    assertThat(broken.getStatus().phase).isEqualTo(RunPhase.FAILED);
    assertThat(broken.getStatus().message)
        .isEqualTo(
            "spec.resourceModifier: ConfigMap broken key rules.yaml:"
                + " resourceModifierRules[0].patches[1].operation drop: use one of add, remove,"
                + " replace, copy, move, test");
    assertThat(client.namespaces().withName("b-copy").get()).isNull();
  }

  @Test
  void aRuleThatCannotApplyFailsItsObjectAndTheRestoreGoesOn() {
    rules(
        "failing", RULES.replace("/spec/replicas, value: \"1\"", "/spec/nothing/x, value: \"1\""));
    op.restore("failing", modified("failing", "f-copy"));
    RestoreStatus s = op.pass("failing").getStatus();

    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.PARTIALLY_FAILED);
    assertThat(s.errors).isEqualTo(1);
    assertThat(s.message).contains("deployments.apps shop/web: resource modifier rule 0");
    assertThat(web("f-copy")).isNull();
    assertThat(mode("f-copy")).isEqualTo("slow");
  }
}
