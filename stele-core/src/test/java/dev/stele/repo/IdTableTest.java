package dev.stele.repo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The flat id table: first value wins, lookups after growth, insertion order. */
class IdTableTest {
  private final Random random = new Random(7);

  private Id id() {
    byte[] bytes = new byte[Id.BYTES];
    random.nextBytes(bytes);
    return Id.of(bytes);
  }

  @Test
  void keepsTheFirstValueOfEveryIdThroughGrowthAndListsThemInOrder() {
    List<Id> added = new ArrayList<>();
    IdTable table = new IdTable();
    for (int i = 0; i < 20_000; i++) {
      Id id = id();
      added.add(id);
      assertThat(table.putIfAbsent(id, i % 7)).isEqualTo(-1);
    }
    for (int i = 0; i < added.size(); i++) {
      // an equal id, not the same object
      Id again = Id.of(added.get(i).bytes());
      assertThat(table.putIfAbsent(again, 99)).isEqualTo(i % 7);
      assertThat(table.get(again)).isEqualTo(i % 7);
    }
    assertThat(table.size()).isEqualTo(added.size());
    assertThat(table).containsExactlyElementsOf(added);
    assertThat(table.get(id())).isEqualTo(-1);
  }

  @Test
  void idsThatShareTheirFirstBytesAreTold() {
    // the hash is the first four bytes: these all collide and differ only at the end
    IdTable table = new IdTable();
    byte[] bytes = new byte[Id.BYTES];
    for (int i = 0; i < 1000; i++) {
      bytes[Id.BYTES - 1] = (byte) i;
      bytes[Id.BYTES - 2] = (byte) (i >> 8);
      assertThat(table.putIfAbsent(Id.of(bytes), i)).isEqualTo(-1);
    }
    for (int i = 0; i < 1000; i++) {
      bytes[Id.BYTES - 1] = (byte) i;
      bytes[Id.BYTES - 2] = (byte) (i >> 8);
      assertThat(table.get(Id.of(bytes))).isEqualTo(i);
    }
  }
}
