"""What Chinese personal names are written with: family names, and the characters given
names are made of.

Names draw on a small part of the script.  The common family names below are carried by
about nine people in ten; given names are one or two characters from a few hundred that
parents choose for their sound and meaning (明, 子, 涵, 萱, 嫣, 琪 …), where a character of a
grammar word or a thing (了, 失, 管 read for 萱) almost never stands.  OCR uses this as a
reader uses it: of two shapes the recognizer hesitates between, the one a name is written
with (``ocr_names.chinese_name_as_written``).  The lists are the well-known ones (the census's
most common family names and the characters of given names), not the corpus's names.
"""

from __future__ import annotations

from cvagent_cli.script import is_east_asian

#: Two-character family names, so that "欧阳 明" stays as written.
COMPOUND_FAMILY = frozenset(
    "欧阳 司马 上官 诸葛 东方 皇甫 尉迟 公孙 慕容 长孙 宇文 司徒 夏侯 轩辕 令狐 钟离 澹台 "
    "独孤 南宫 呼延 端木 万俟 闻人 东郭 百里 西门 申屠 太史".split()
)

#: One-character family names: about the 250 most common (the first hundred alone are
#: carried by some 85% of people).
FAMILY = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林高罗郑梁谢宋唐许韩邓冯曹彭曾肖田董潘袁蔡蒋余于杜"
    "叶程魏苏吕丁任卢姚沈钟姜崔谭陆范汪廖石金韦贾夏付傅方邹熊白孟秦邱侯江尹薛闫阎段雷龙黎"
    "史陶贺毛郝顾龚邵万覃武钱戴严莫孔向常汤康易乔赖文施洪辛柯庄樊牛葛邢安齐伍关祝左单殷詹"
    "申耿焦包甘车霍俞柴章涂童颜骆温凌管戚华阮祁倪岳舒鲁季卓蓝裴尚路褚游费卜房滕聂鞠郎苗"
    "柏练尤庞卞麦梅盛缪简池隋翁宁卫纪项蒲晏时原景宫冉苟窦计丰艾鲍衡吉和云屈粟巫蔺谷闵"
    "师全边符芦廉仲商占佘冷宗明湛饶匡毕桂习阳胥荣晋雍昌来郁寇解封邬蒙欧幸戈查虞喻荆"
    "黄祖米过党谈诸双桑岑苑楚莘麻佟厉连支刁"
)

#: Characters given names are made of: the few hundred in common use, for both sexes and
#: every generation (建国, 秀英, 子涵, 梓萱 alike).
GIVEN = frozenset(
    # sound and virtue
    "一乙丁人力才子之文方心天元云中仁允友升丹月世东冬平正玉永立可弘生民石白乐兰宁宇安"
    "守光兴军阳冰旭成伊同帆竹羽帅亦伦全名向好如妍池江汐米辰龙志秀克佑伯希孝言初佳依"
    "欣怡雨晨思琪诗嘉俊博铭睿泽皓鸣逸凡远晓明华伟芳娜敏静丽强磊洋勇艳杰娟涛超英霞刚桂"
    "萍红建辉鹏飞婷雪琳瑶慧颖倩玲莉燕蓉薇蕾洁璐晶岚菲婉婧彤悦瑜瑞璇若曦语嫣雯馨媛姝姗"
    "妮楠朵露琦珊珍珠凤美梅雅清晴菁茜蕊芸芬芝荷莲菊萌依乐欢笑意书画琴棋墨"
    # boys' names of every generation
    "豪凯峰斌毅锋坤宏亮健康松柏林森海河川山岳峻岩鑫金银锦钧锐钊宸泓瀚源澄淳润浚泉洪"
    "波航达通迪遥进运道德义礼智信忠诚良善贤圣君地宙星日光晖晗昊晟昱景曜晋昌盛旺荣富贵"
    "福禄寿喜庆祥吉泰和顺利长久恒新壮威武雄彦章学士儒哲聪捷灵鸿翔翰鹤麟骏驰腾跃振家国"
    "建功业绩胜旋兵卫南西北春夏秋桐杨柳枫桦楷栋梁材根本树彬杉棠梓萱芊芮苒茗莹"
    # the names of the last generation
    "诺宸霖奕桐汐沐悠瑾瑄琛琨璋珏瑛琬琰瑗宛恬愉惠憬忆念恩慈爱钰玥璟歆颜舒昕晞暄煜炜烨"
    "焱炎灿烁熙然照耀凌霄霆侠修儒兆先其则剑励劲勋卓启坚城培基堂奇娅婕孜宜宝实宪寒尚"
    "展崇嵘巍延廷征惟扬承政敬斌昂昆易昭曼朗望朝杰柯桓楚榕樱治汉汝沁沛沫法洲淑淼渊湘"
    "溪滢潇澜澈炳烈熠爽玮环珂珞琅理琼璧甫田畅登益盈真硕祖祺祯秋程穆竣端筠紫纯绍经维绮"
    "翊翠胜自芙芷花苗茂茵莎菡蓓蓝蔚蕴虹行裕观誉谦贝贞资赫越路迎邦鉴镇闻雁霏霓青靖韵颂"
    "风驰黎麒梦甜蝶莺鹃晓淳雷振湘涵轩浩宇俊怀敦远航帆锡铮钦钢铁银宣宾容宵岭峥嵩巧左"
    "佩侨俐倚健傲兮冉净凝凯函利博卿厚叶可吟咏品哲唯商善嘉囡园圆坤垚城墨壁夕多大天太"
    "奎姣姿娴娣婵媚嫦子孟季孜孝宁宏定宜宪宫家宸寅尧尹岑峦川巍巾帅平幸庆庭康弈彩彬彪征"
    "微德忠怡恒恺悟惜慈慕懿戈才振捷斐旖旦旺昀昶晏晟晨曦月朋材杭松林枝柔柳栩格桂梅梧"
    "棋森楠榆槿欢正殊毓永汀沅沐沙泊泓泠津洛洵浅涓涟淇深渝湄湛溢漫潼澄澍灏炅炫烽焕煊"
    "熊燊璞瓒甄畇皎盛省眉睿瞻知矜石砚碧磊礼社祎神祝禧秉秦稷穗童竞笛笙筱简粲素紫红纬纭"
    "绚绣维缘罡羲翎翡翩耘聆肖舜航艾芃芯苑苓茉荟莉莎菀萤葆蓁蔓蕙蕴薰藏融衍袁裴西詹誉"
    "谨豫贺赞辰迅逍遐邈郁醇采里钟铎锴镜闳阔阿陶隽雍雯霁露韬韶顾领颐飒飘馥骁鹭鹿黛鼎"
)


def plausible(name: str) -> bool:
    """Is ``name`` (2–4 characters, spaces left out) written as a Chinese personal name: a
    family name first, then characters given names are made of?"""
    text = name.replace(" ", "")
    if not 2 <= len(text) <= 4 or not all(is_east_asian(ch) for ch in text):
        return False
    if text[:2] in COMPOUND_FAMILY and len(text) >= 3:
        given = text[2:]
    elif text[0] in FAMILY:
        given = text[1:]
    else:
        return False
    return len(given) <= 2 and all(ch in GIVEN for ch in given)
