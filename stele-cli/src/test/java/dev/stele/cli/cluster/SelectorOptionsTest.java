package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.cli.Cli;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RunPhase;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --selector} in kubectl's syntax, Velero's {@code --or-selector} and {@code
 * --resource-modifier-configmap}, as backup and restore create put them into the spec.
 */
@EnableKubernetesMockClient(crud = true)
class SelectorOptionsTest {
  KubernetesClient client;
  @TempDir Path dir;
  ClusterFixture k8s;

  @BeforeEach
  void setUp() throws IOException {
    k8s = new ClusterFixture(client, dir);
  }

  static List<String> expressions(LabelSelector s) {
    return s.getMatchExpressions().stream()
        .map(r -> r.getKey() + " " + r.getOperator() + " " + r.getValues())
        .toList();
  }

  @Test
  void backupCreateTakesSetBasedAndOrSelectors() {
    Cli.Run run =
        k8s.run("backup", "create", "set", "--selector", "app in (web,api),tier!=cache,!legacy");
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    BackupSpec spec = k8s.get(Backup.class, "set").getSpec();
    assertThat(expressions(spec.labelSelector))
        .containsExactly("app In [web, api]", "tier NotIn [cache]", "legacy DoesNotExist []");

    run = k8s.run("backup", "create", "or", "--or-selector", "app=web or tier in (db)");
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    spec = k8s.get(Backup.class, "or").getSpec();
    assertThat(spec.labelSelector).isNull();
    assertThat(spec.orLabelSelectors).hasSize(2);
    assertThat(spec.orLabelSelectors.get(0).getMatchLabels()).isEqualTo(Map.of("app", "web"));
    assertThat(expressions(spec.orLabelSelectors.get(1))).containsExactly("tier In [db]");
  }

  @Test
  void bothSelectorsOrAMalformedOneAreOneLineAndCreateNothing() {
    Cli.Run run = k8s.run("backup", "create", "b", "--selector", "a=b", "--or-selector", "c=d");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errorLines())
        .containsExactly("stele: --selector and --or-selector cannot be used together: use one");

    run = k8s.run("backup", "create", "b", "--or-selector", "a=b or c=d!");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errorLines())
        .containsExactly(
            "stele: --or-selector a=b or c=d!: 'c=d!': 'd!' is not a valid label value");
    assertThat(k8s.list(Backup.class)).isEmpty();
  }

  @Test
  void restoreCreateNamesTheResourceModifierConfigMapAndTakesOrSelectors() {
    k8s.backup("nightly", null, ClusterFixture.status(RunPhase.COMPLETED));
    Cli.Run missing =
        k8s.run(
            "restore",
            "create",
            "r",
            "--from-backup",
            "nightly",
            "--resource-modifier-configmap",
            "rules");
    assertThat(missing.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(missing.errorLines())
        .containsExactly("stele: configmap rules does not exist in namespace stele");
    assertThat(k8s.list(Restore.class)).isEmpty();

    client
        .configMaps()
        .inNamespace("stele")
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("rules")
                .endMetadata()
                .addToData("rules.yaml", "version: v1")
                .build())
        .create();
    Cli.Run run =
        k8s.run(
            "restore",
            "create",
            "r",
            "--from-backup",
            "nightly",
            "--resource-modifier-configmap",
            "rules",
            "--or-selector",
            "app=web or app=api");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    RestoreSpec spec = k8s.get(Restore.class, "r").getSpec();
    assertThat(spec.resourceModifier.getKind()).isEqualTo("ConfigMap");
    assertThat(spec.resourceModifier.getName()).isEqualTo("rules");
    assertThat(spec.orLabelSelectors).hasSize(2);
  }
}
