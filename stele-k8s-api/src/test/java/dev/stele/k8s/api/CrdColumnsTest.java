package dev.stele.k8s.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The printer columns of the generated CRDs, as {@code kubectl get} shows them. */
class CrdColumnsTest {
  private static final List<Class<? extends HasMetadata>> TYPES =
      List.of(
          Backup.class,
          BackupStorageLocation.class,
          BackupStorageLocationRepository.class,
          BackupStorageLocationServer.class,
          DeleteBackupRequest.class,
          PodVolumeBackup.class,
          PodVolumeRestore.class,
          Restore.class,
          Schedule.class);

  @Test
  void phaseComesFirstThenTheColumnsInTheOrderTheClassDeclaresThem() throws IOException {
    for (Class<? extends HasMetadata> type : TYPES) {
      List<String> declared =
          Arrays.stream(type.getAnnotationsByType(AdditionalPrinterColumn.class))
              .map(AdditionalPrinterColumn::name)
              .toList();
      assertThat(names(columns(type))).as(type.getSimpleName()).isEqualTo(declared);
      assertThat(declared.get(0)).as(type.getSimpleName()).isEqualTo("Phase");
    }
  }

  @Test
  void futureTimesAreStringsBecauseKubectlShowsAFutureDateAsInvalid() throws IOException {
    assertThat(column(Backup.class, "Expires").getType()).isEqualTo("string");
    assertThat(column(DeleteBackupRequest.class, "Retained Until").getType()).isEqualTo("string");
    assertThat(column(Backup.class, "Age").getType()).isEqualTo("date");
  }

  private static CustomResourceColumnDefinition column(
      Class<? extends HasMetadata> type, String name) throws IOException {
    return columns(type).stream().filter(c -> c.getName().equals(name)).findFirst().orElseThrow();
  }

  private static List<CustomResourceColumnDefinition> columns(Class<? extends HasMetadata> type)
      throws IOException {
    Path file = Path.of("../deploy/crds", HasMetadata.getFullResourceName(type) + "-v1.yml");
    CustomResourceDefinition crd =
        new KubernetesSerialization()
            .unmarshal(Files.readString(file), CustomResourceDefinition.class);
    return crd.getSpec().getVersions().get(0).getAdditionalPrinterColumns();
  }

  private static List<String> names(List<CustomResourceColumnDefinition> columns) {
    return columns.stream().map(CustomResourceColumnDefinition::getName).toList();
  }
}
